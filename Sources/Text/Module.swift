// Module Text.
