// bench_oneliner.cpp: picollo::Bench in nanobench's shape, `Bench().run("name", work)`, as
// one measures interactively: two short runs, each printing its row of one table (checked by
// c-tests/gbench.sh).
#include <picollo/picollo.hpp>

#include <numeric>
#include <vector>

int main() {
    std::vector<uint64_t> values(1000, 1);
    picollo::Bench bench;
    bench.counters("");
    bench.run("sum 1000", [&] { picollo::do_not_optimize(std::accumulate(values.begin(), values.end(), uint64_t{0})); });
    bench.budget(0.2).run("sum 10", [&] { picollo::do_not_optimize(std::accumulate(values.begin(), values.begin() + 10, uint64_t{0})); });
    return 0;
}
