// The sample C# suite c-tests/csharp/suite.sh runs: Sums, three benchmarks (an instance one
// with a result, a static batch one, one named after its method), as docs/suites.md shows
// them; compiled with -define:SLOWER, "spin 200" does eight times the work (-define:MUCH_SLOWER:
// 1,000 times). PICOLLO_SUITE_CLASS
// names another class to run instead: Throwing (a benchmark that throws, one whose
// constructor throws, one that is fine), Twice (two benchmarks of one name), BadShape (a
// benchmark taking an int), NoDefaultConstructor (an instance benchmark of a class that
// cannot be made without arguments), Params (benchmarks of [Arguments] with a [Throughput]:
// "fill/64", "fill/4096" of n bytes an operation, "sums/8", "sums/64" in the batch form of
// n elements, and "sum 1000" of 1,000 elements), BadUnit and ZeroThroughput (a throughput
// the library refuses).

using System;
using Picollo.Suites;

public class Sums
{
    readonly ulong[] _values = new ulong[1000];

    public Sums()
    {
        for (int i = 0; i < _values.Length; i++) _values[i] = (ulong)i;
    }

    [Benchmark("sum 1000")]
    public ulong Sum()
    {
        ulong sum = 0;
        foreach (ulong v in _values) sum += v;
        return sum;
    }

    // The batch form: k operations in its own loop, each a chain of dependent steps.
    [Benchmark("spin 200")]
    public static ulong Spin(ulong k)
    {
#if MUCH_SLOWER
        const ulong steps = 200000;
#elif SLOWER
        const ulong steps = 1600;
#else
        const ulong steps = 200;
#endif
        ulong x = 1;
        for (ulong i = 0; i < k * steps; i++) x = x * 6364136223846793005UL + i;
        return x;
    }

    [Benchmark]
    public static int Parse()
    {
        return int.Parse("12345");
    }
}

public class Throwing
{
    public Throwing()
    {
        throw new ArgumentException("the constructor failed, as the test asked");
    }

    [Benchmark("fine")]
    public static void Fine() { }

    [Benchmark("throws")]
    public static void Throws()
    {
        throw new InvalidOperationException("the sum was wrong, as the test asked");
    }

    [Benchmark("instance")]
    public void Instance() { }
}

public class Twice
{
    [Benchmark("same")]
    public static void First() { }

    [Benchmark("same")]
    public static void Second() { }
}

public class BadShape
{
    [Benchmark]
    public static void TakesAnInt(int n) { }
}

public class NoDefaultConstructor
{
    public NoDefaultConstructor(int n) { }

    [Benchmark]
    public void Work() { }
}

public class Params
{
    readonly byte[] _buffer = new byte[4096];

    [Benchmark("fill")]
    [Arguments(64)]
    [Arguments(4096)]
    [Throughput("bytes")]
    public byte Fill(int n)
    {
        Array.Clear(_buffer, 0, n);
        return _buffer[n - 1];
    }

    [Benchmark("sums")]
    [Arguments(8UL)]
    [Arguments(64UL)]
    [Throughput("elements")]
    public static ulong Sums(ulong n, ulong k)
    {
        ulong s = 0;
        for (ulong i = 0; i < k * n; i++) s += i;
        return s;
    }

    [Benchmark("sum 1000")]
    [Throughput("elements", 1000)]
    public static ulong Sum()
    {
        ulong s = 0;
        for (ulong i = 0; i < 1000; i++) s += i;
        return s;
    }
}

public class BadUnit
{
    [Benchmark("a")]
    [Throughput("bits", 8)]
    public static void A() { }
}

public class ZeroThroughput
{
    [Benchmark("zero")]
    [Arguments(0)]
    [Throughput("bytes")]
    public static void Zero(int n) { }
}

public static class Program
{
    public static int Main(string[] args)
    {
        switch (Environment.GetEnvironmentVariable("PICOLLO_SUITE_CLASS"))
        {
            case "Throwing": return Suite.Run<Throwing>(args);
            case "Twice": return Suite.Run<Twice>(args);
            case "BadShape": return Suite.Run<BadShape>(args);
            case "NoDefaultConstructor": return Suite.Run<NoDefaultConstructor>(args);
            case "Params": return Suite.Run<Params>(args);
            case "BadUnit": return Suite.Run<BadUnit>(args);
            case "ZeroThroughput": return Suite.Run<ZeroThroughput>(args);
            default: return Suite.Run<Sums>(args);
        }
    }
}
