// picollo_benchmark.hpp as an install lays it out (`#include <picollo/picollo_benchmark.hpp>`),
// for a build against the checkout with -I include.
#include "../picollo_benchmark.hpp"
