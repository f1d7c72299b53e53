// BoardConfig: the one board config file (card, connector, mode, rotation, calibration, scale, app).
