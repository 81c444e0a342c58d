"""The torch side of the lecture: the colour task, attention, training, the data file.

Importing this package imports no torch: scenes load the data file through
:mod:`model.datafile` and must not pay for (or be able to call) training.
"""
