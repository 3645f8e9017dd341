# The package's version: nsm's (the project() version of the top CMakeLists.txt,
# which the test python.nsm compares with it).
__version__ = "0.1.0"
