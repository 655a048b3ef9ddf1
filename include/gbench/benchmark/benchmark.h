// benchmark/benchmark.h for a Google Benchmark program built against Picollo unchanged: with
// `-I include/gbench` (an install: `-I PREFIX/include/picollo/gbench`) its
// `#include <benchmark/benchmark.h>` finds this file, which is picollo_benchmark.hpp.
#include "../../picollo_benchmark.hpp"
