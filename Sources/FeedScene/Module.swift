// Module FeedScene.
