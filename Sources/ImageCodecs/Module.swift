// Module ImageCodecs.
