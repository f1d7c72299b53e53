// Runtime: the frame loop contract between the UI and the devices (display, input, clock).
