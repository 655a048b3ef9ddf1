// picollo_benchmark_report.hpp as an install lays it out (`#include <picollo/picollo_benchmark_report.hpp>`),
// for a build against the checkout with -I include.
#include "../picollo_benchmark_report.hpp"
