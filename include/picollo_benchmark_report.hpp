// picollo_benchmark_report.hpp: what Google Benchmark reports beside the time and Picollo's
// runner does not know of (user counters, labels, the complexity fit), added to the runner's
// Google Benchmark JSON (its `--export gbench=`, read back) and printed after the runner's
// lines. Included by picollo_benchmark_main.hpp, after its Instance.
#ifndef PICOLLO_BENCHMARK_REPORT_HPP
#define PICOLLO_BENCHMARK_REPORT_HPP

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace benchmark {
namespace internal {

// `text` as a JSON string, quotes included, escaped as the runner's JSON escapes its names.
inline std::string Quoted(const std::string &text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20) {
            char code[8];
            std::snprintf(code, sizeof code, "\\u%04x", unsigned(c));
            out += code;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

// `x` as a JSON number (null where it is not finite: JSON has no infinity).
inline std::string Number(double x) {
    if (!std::isfinite(x)) {
        return "null";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", x);
    return text;
}

// The index just past the JSON string whose opening quote is at `at`.
inline std::size_t PastString(const std::string &s, std::size_t at) {
    for (std::size_t i = at + 1; i < s.size(); i++) {
        if (s[i] == '\\') {
            i++;
        } else if (s[i] == '"') {
            return i + 1;
        }
    }
    return s.size();
}

// The index of the bracket that closes the object or array opening at `at` (npos: none).
inline std::size_t Closing(const std::string &s, std::size_t at) {
    int depth = 0;
    for (std::size_t i = at; i < s.size(); i++) {
        if (s[i] == '"') {
            i = PastString(s, i) - 1;
        } else if (s[i] == '{' || s[i] == '[') {
            depth++;
        } else if ((s[i] == '}' || s[i] == ']') && --depth == 0) {
            return i;
        }
    }
    return std::string::npos;
}

// One object of the file's `benchmarks`: its text, from its `{` to its `}`, and where in the
// file that `}` is. Its members as written: `Raw("run_name")` is the name quoted, "" where
// the object has no such member. (In the runner's JSON a quote inside a string is always
// escaped, so `"key":` is found only as a key.)
struct Record {
    std::string text;
    std::size_t end;
    std::string Raw(const std::string &key) const {
        std::string pattern = Quoted(key) + ":";
        std::size_t from = text.find(pattern);
        if (from == std::string::npos) {
            return "";
        }
        from += pattern.size();
        std::size_t to = text[from] == '"' ? PastString(text, from) : text.find_first_of(",}", from);
        return text.substr(from, to - from);
    }
    double Figure(const std::string &key) const { return std::strtod(Raw(key).c_str(), nullptr); }
};

// The objects of the `benchmarks` array of Google Benchmark's JSON `json`, in order.
inline std::vector<Record> Records(const std::string &json) {
    std::vector<Record> out;
    std::size_t at = json.find("\"benchmarks\":[");
    if (at == std::string::npos) {
        return out;
    }
    at = json.find('[', at);
    std::size_t last = Closing(json, at);
    for (std::size_t i = json.find('{', at); i < last; i = json.find('{', i)) {
        std::size_t end = Closing(json, i);
        if (end == std::string::npos) {
            break;
        }
        out.push_back(Record{json.substr(i, end + 1 - i), end});
        i = end + 1;
    }
    return out;
}

// A counter's figure as Google Benchmark's flags make it, from the value a batch of `k`
// iterations left and that batch's time `seconds` (one thread: kAvgThreads divides by 1).
inline double Figure(const Counter &c, double k, double seconds) {
    double v = c.value;
    if (c.flags & Counter::kIsRate) {
        v /= seconds;
    }
    if (c.flags & Counter::kIsIterationInvariant) {
        v *= k;
    }
    if (c.flags & Counter::kAvgIterations) {
        v /= k;
    }
    if (c.flags & Counter::kInvert) {
        v = 1.0 / v;
    }
    return v;
}

inline double Mean(const std::vector<double> &v) {
    double sum = 0;
    for (double x : v) {
        sum += x;
    }
    return sum / double(v.size());
}

inline double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The sample standard deviation (n - 1); 0 for one value.
inline double StdDev(const std::vector<double> &v) {
    if (v.size() < 2) {
        return 0;
    }
    double m = Mean(v), squares = 0;
    for (double x : v) {
        squares += (x - m) * (x - m);
    }
    return std::sqrt(squares / double(v.size() - 1));
}

// Aggregate `name` of the runner's (mean, median, stddev, cv) over `v`; NaN for another.
inline double Aggregate(const std::string &name, const std::vector<double> &v) {
    if (name == "mean") {
        return Mean(v);
    }
    if (name == "median") {
        return Median(v);
    }
    if (name == "stddev") {
        return StdDev(v);
    }
    return name == "cv" ? StdDev(v) / Mean(v) : NAN;
}

// `x` to 6 digits with Google Benchmark's suffixes: of 1000 (k, M, G, ...) or of 1024 (Ki,
// Mi, ...) above 1, of 1000 below (m, u, n, p, f, a).
inline std::string Human(double x, Counter::OneK one_k) {
    static const char *const decimal[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const binary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    static const char *const small[] = {"", "m", "u", "n", "p", "f", "a"};
    double base = one_k == Counter::kIs1024 ? 1024.0 : 1000.0;
    const char *suffix = "";
    for (int power = 1; std::fabs(x) >= base && power < 7; power++) {
        x /= base;
        suffix = (one_k == Counter::kIs1024 ? binary : decimal)[power];
    }
    for (int power = 1; x != 0 && std::fabs(x) < 1 && power < 7; power++) {
        x *= 1000;
        suffix = small[power];
    }
    char text[48];
    std::snprintf(text, sizeof text, "%.6g%s", x, suffix);
    return text;
}

// Curve `curve` at `n` (lg: the logarithm base 2); `lambda` is oLambda's.
inline double Curve(BigO curve, double n, BigOFunc *lambda) {
    switch (curve) {
    case oN:
        return n;
    case oNSquared:
        return n * n;
    case oNCubed:
        return n * n * n;
    case oLogN:
        return std::log2(n);
    case oNLogN:
        return n * std::log2(n);
    case oLambda:
        return lambda(IterationCount(n));
    default:
        return 1.0;
    }
}

// The name Google Benchmark gives a curve in its `_BigO` row.
inline const char *CurveName(BigO curve) {
    switch (curve) {
    case oN:
        return "N";
    case oNSquared:
        return "N^2";
    case oNCubed:
        return "N^3";
    case oLogN:
        return "lgN";
    case oNLogN:
        return "NlgN";
    case oLambda:
        return "f(N)";
    default:
        return "(1)";
    }
}

// A family's times (ns per iteration) over its N: the least-squares coefficient of time =
// coefficient * curve(N), and the root mean square of what it leaves over the mean time.
struct Fit {
    BigO curve;
    double coefficient, rms;
};
typedef std::vector<std::pair<double, double>> Points; // (N, time)

inline Fit FitTo(BigO curve, const Points &points, BigOFunc *lambda) {
    double gg = 0, tg = 0, sum = 0, squares = 0;
    for (const auto &p : points) {
        double g = Curve(curve, p.first, lambda);
        gg += g * g;
        tg += p.second * g;
        sum += p.second;
    }
    double c = tg / gg, n = double(points.size());
    for (const auto &p : points) {
        double left = p.second - c * Curve(curve, p.first, lambda);
        squares += left * left;
    }
    return Fit{curve, c, std::sqrt(squares / n) / (sum / n)};
}

// The fit `->Complexity(curve)` asks for; for oAuto, the curve of least RMS of (1), lgN, N,
// NlgN, N^2 and N^3, (1) unless another is strictly better.
inline Fit BestFit(BigO curve, const Points &points, BigOFunc *lambda) {
    if (curve != oAuto) {
        return FitTo(curve, points, lambda);
    }
    Fit best = FitTo(o1, points, lambda);
    for (BigO c : {oLogN, oN, oNLogN, oNSquared, oNCubed}) {
        Fit f = FitTo(c, points, lambda);
        best = f.rms < best.rms ? f : best;
    }
    return best;
}

// What the file says of one instance that ran here: its rounds' times (ns per iteration,
// the rounds' median times in the order of the file) and the text of its last record.
struct Measured {
    const Instance *in;
    std::vector<double> times;
    const Record *last = nullptr;
};

// The instances of `all` that ran here (a batch kept), with their rounds in `records`.
inline std::map<std::string, Measured> MeasuredIn(const std::vector<Record> &records,
                                                   const std::vector<Instance> &all) {
    std::map<std::string, Measured> out;
    for (const Instance &in : all) {
        if (in.kept.k > 0) {
            out[Quoted(in.name)] = Measured{&in, {}, nullptr};
        }
    }
    for (const Record &r : records) {
        auto m = out.find(r.Raw("run_name"));
        if (m != out.end()) {
            m->second.last = &r;
            if (r.Raw("run_type") == "\"iteration\"") {
                m->second.times.push_back(r.Figure("real_time"));
            }
        }
    }
    return out;
}

// Counter `c`'s figure in each round of `times`, from the value its batch of `k` left.
inline std::vector<double> Figures(const Counter &c, IterationCount k, const std::vector<double> &times) {
    std::vector<double> out;
    for (double ns : times) {
        out.push_back(Figure(c, double(k), double(k) * ns * 1e-9));
    }
    return out;
}

// The members record `r` of `m` gains: each counter it lacks (a round's figure, or an
// aggregate's over the rounds), then the label where it has none.
inline std::string Members(const Record &r, const Measured &m) {
    std::string out, aggregate = r.Raw("aggregate_name");
    aggregate = aggregate.size() > 2 ? aggregate.substr(1, aggregate.size() - 2) : "";
    std::size_t round = std::size_t(r.Figure("repetition_index"));
    for (const auto &c : m.in->kept.counters) {
        if (!r.Raw(c.first).empty()) {
            continue;
        }
        std::vector<double> figures = Figures(c.second, m.in->kept.k, m.times);
        double x = aggregate.empty() ? (round < figures.size() ? figures[round] : NAN) : Aggregate(aggregate, figures);
        out += "," + Quoted(c.first) + ":" + Number(x);
    }
    if (!m.in->kept.label.empty() && r.Raw("label").empty()) {
        out += ",\"label\":" + Quoted(m.in->kept.label);
    }
    return out;
}

// The points of `family`'s instances that ran here with an N: (N, the rounds' median time).
inline Points PointsOf(const Benchmark *family, const std::map<std::string, Measured> &measured,
                       const Record **last) {
    Points points;
    for (const auto &m : measured) {
        if (m.second.in->family == family && m.second.in->kept.complexity_n > 0 && !m.second.times.empty()) {
            points.emplace_back(double(m.second.in->kept.complexity_n), Median(m.second.times));
            *last = *last == nullptr || m.second.last->end > (*last)->end ? m.second.last : *last;
        }
    }
    return points;
}

// `family`'s fit as Google Benchmark's two records, `_BigO` and `_RMS`, each after a comma;
// `last` is the family's last record, whose family index and repetitions they take.
inline std::string FitRecords(const Benchmark *family, const Fit &fit, const Record &last) {
    std::string name = family->BaseName(), head = "\"family_index\":" + last.Raw("family_index") +
                                                  ",\"per_family_instance_index\":0,\"run_name\":" + Quoted(name) +
                                                  ",\"run_type\":\"aggregate\",\"repetitions\":" +
                                                  last.Raw("repetitions") + ",\"threads\":1,";
    std::string coefficient = Number(fit.coefficient);
    return ",{\"name\":" + Quoted(name + "_BigO") + "," + head +
           "\"aggregate_name\":\"BigO\",\"aggregate_unit\":\"time\",\"cpu_coefficient\":" + coefficient +
           ",\"real_coefficient\":" + coefficient + ",\"big_o\":" + Quoted(CurveName(fit.curve)) +
           ",\"time_unit\":\"ns\"},{\"name\":" + Quoted(name + "_RMS") + "," + head +
           "\"aggregate_name\":\"RMS\",\"aggregate_unit\":\"percentage\",\"rms\":" + Number(fit.rms) + "}";
}

// The families of `->Complexity` that have two points or more, each with its fit and its
// last record.
struct FamilyFit {
    const Benchmark *family;
    Fit fit;
    const Record *last;
    std::size_t points;
};
inline std::vector<FamilyFit> Fits(const std::map<std::string, Measured> &measured) {
    std::vector<FamilyFit> out;
    for (const auto &b : Registry()) {
        const Record *last = nullptr;
        Points points = PointsOf(b.get(), measured, &last);
        if (b->ComplexityCurve() != oNone && points.size() >= 2) {
            out.push_back(FamilyFit{b.get(), BestFit(b->ComplexityCurve(), points, b->ComplexityLambda()), last,
                                    points.size()});
        }
    }
    return out;
}

// `json` (the runner's Google Benchmark JSON) with the counters and labels of the instances
// that ran here in each of their records, and each fit's records after its family's last.
inline std::string WithReport(const std::string &json, const std::vector<Record> &records,
                              const std::map<std::string, Measured> &measured) {
    std::vector<std::pair<std::size_t, std::string>> inserts; // (before index, text)
    for (const Record &r : records) {
        auto m = measured.find(r.Raw("run_name"));
        if (m != measured.end()) {
            std::size_t label = r.text.rfind(",\"label\":");
            std::size_t at = label == std::string::npos ? r.text.size() - 1 : label;
            inserts.emplace_back(r.end + 1 - r.text.size() + at, Members(r, m->second));
        }
    }
    for (const FamilyFit &f : Fits(measured)) {
        inserts.emplace_back(f.last->end + 1, FitRecords(f.family, f.fit, *f.last));
    }
    std::stable_sort(inserts.begin(), inserts.end(),
                     [](const std::pair<std::size_t, std::string> &a, const std::pair<std::size_t, std::string> &b) {
                         return a.first < b.first;
                     });
    std::string out;
    std::size_t at = 0;
    for (const auto &i : inserts) {
        out += json.substr(at, i.first - at) + i.second;
        at = i.first;
    }
    return out + json.substr(at);
}

// A line for each instance's counters and label, figured at its rounds' median time, and
// the `_BigO` and `_RMS` rows of each fit, on the standard output.
inline void PrintReport(const std::map<std::string, Measured> &measured) {
    for (const Instance &in : Instances()) { // in the order they ran
        auto found = measured.find(Quoted(in.name));
        if (found == measured.end()) {
            continue;
        }
        const Measured &m = found->second;
        const Kept &kept = in.kept;
        if (!kept.counters.empty() && !m.times.empty()) {
            double ns = Median(m.times);
            char time[32];
            std::snprintf(time, sizeof time, "%.6g", ns);
            std::string line = m.in->name + ": counters at " + time +
                               " ns an iteration (the rounds' median) and batch " + std::to_string(kept.k) + ":";
            for (const auto &c : kept.counters) {
                line += " " + c.first + "=" + Human(Figure(c.second, double(kept.k), double(kept.k) * ns * 1e-9),
                                                    c.second.oneK);
                bool rate = c.second.flags & Counter::kIsRate, inverted = c.second.flags & Counter::kInvert;
                line += rate ? (inverted ? "s" : "/s") : "";
            }
            std::printf("%s\n", line.c_str());
        }
        if (!kept.label.empty()) {
            std::printf("%s: label: %s\n", m.in->name.c_str(), kept.label.c_str());
        }
    }
    for (const FamilyFit &f : Fits(measured)) {
        std::printf("%s_BigO: %.4g %s (ns, fit to %zu medians)\n%s_RMS: %.0f %%\n", f.family->BaseName().c_str(),
                    f.fit.coefficient, CurveName(f.fit.curve), f.points, f.family->BaseName().c_str(),
                    f.fit.rms * 100);
    }
}

} // namespace internal
} // namespace benchmark

#endif // PICOLLO_BENCHMARK_REPORT_HPP
