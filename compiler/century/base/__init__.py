"""What every layer may use: diagnostics, limits, reading inputs and writing output safely,
the package's resources, optional extras, the explanations of the diagnostic codes, a look's
files and colours, the user's cache folder, and the package's version."""
