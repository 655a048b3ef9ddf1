// The C++ header as an install lays it out (`#include <picollo/picollo.hpp>`), for a build
// against the checkout with -I include.
#include "../picollo.hpp"
