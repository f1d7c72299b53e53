// Module FeelLab.
