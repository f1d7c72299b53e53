// Module Scrolling.
