// Module Physics.
