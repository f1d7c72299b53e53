// Runtime: the loop machinery (the frame driver and loop, idle blanking, systemd, wake-ups)
// over the contracts of AppContract, which it re-exports for the modules that drive a loop.
@_exported import AppContract
