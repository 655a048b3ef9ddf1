// suite_sample.cpp: a C++ suite as its users write it (picollo::Suite and lambdas), run by
// c-tests/suite.sh as a program: its list, a filter, --test, a short measurement, two builds
// through --against. Built with -DSLOWER, "spin 200" does eight times the work (a slower
// build);
// PICOLLO_SUITE_THROW=1 adds a benchmark that throws, PICOLLO_SUITE_DUPLICATE=1 a second
// benchmark named "sum 1000", PICOLLO_SUITE_PARAMS=1 a benchmark of parameters with a
// throughput ("fill/64", "fill/4096": n bytes an operation) and a throughput of "sum 1000".
#include "picollo.hpp"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#ifdef SLOWER
constexpr uint64_t SPIN = 1600;
#else
constexpr uint64_t SPIN = 200;
#endif

static bool asked(const char *var) {
    const char *v = std::getenv(var);
    return v != nullptr && std::string(v) == "1";
}

int main(int argc, char **argv) {
    picollo::Suite suite("suite_sample_cpp");
    std::vector<uint64_t> values(1000);
    std::iota(values.begin(), values.end(), 0);
    suite.add("sum 1000", [&] {
        picollo::do_not_optimize(values.data());
        picollo::do_not_optimize(std::accumulate(values.begin(), values.end(), uint64_t{0}));
    });
    suite.add("spin 200", [](uint64_t k) {
        for (uint64_t i = 0; i < k; i++) {
            uint64_t x = 0;
            for (uint64_t j = 0; j < SPIN; j++) {
                x += j;
                picollo::do_not_optimize(x);
            }
        }
    });
    if (asked("PICOLLO_SUITE_THROW")) {
        suite.add("throws", [] { throw std::runtime_error("out of range, as the test asked"); });
    }
    if (asked("PICOLLO_SUITE_PARAMS")) {
        std::vector<unsigned char> buffer(4096);
        suite.add_params(
            "fill", std::vector<uint64_t>{64, 4096},
            [buffer](uint64_t n) mutable {
                std::memset(buffer.data(), int(n), n);
                picollo::do_not_optimize(buffer.data());
            },
            [](uint64_t n) { return picollo::Throughput{"bytes", n}; });
        suite.throughput("sum 1000", {"elements", 1000});
    }
    if (asked("PICOLLO_SUITE_DUPLICATE")) {
        suite.add("sum 1000", [] {});
    }
    return suite.main(argc, argv);
}
