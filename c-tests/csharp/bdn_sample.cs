// A suite written in BenchmarkDotNet's idioms, with only its `using` lines naming Picollo's
// namespaces (docs/bring-your-suite.md), which bdn.sh runs. Each benchmark counts its calls,
// which [GlobalCleanup] prints, so the test mode shows that each body ran once. Built with
// -define:BAD it holds the classes run one at a time (BDN_SAMPLE_CLASS names it): those the
// runner must refuse or fail, and Spins (hooks that spin, left out of the time).

using System;
using System.Collections.Generic;
using System.Linq;
using Picollo.BenchmarkDotNet.Attributes;
using Picollo.BenchmarkDotNet.Jobs;
using Picollo.BenchmarkDotNet.Running;

namespace Samples
{
    public enum Shape { Square, Circle }

    [MemoryDiagnoser, ShortRunJob, SimpleJob(RuntimeMoniker.Net80, warmupCount: 3), Config(typeof(object))]
    [RankColumn, MarkdownExporterAttribute.GitHub, BenchmarkCategory("sums")]
    public class Sums
    {
        [Params(10, 100)]
        public int N;

        int[] values;
        int calls;

        [GlobalSetup]
        public void Setup() => values = Enumerable.Range(0, N).ToArray();

        [GlobalCleanup]
        public void Cleanup() => Console.WriteLine($"cleanup Sums N={N}: {calls} call(s)");

        [Benchmark(Baseline = true, Description = "the sum")]
        public long Sum()
        {
            calls++;
            long sum = 0;
            foreach (int v in values) sum += v;
            return sum;
        }

        [Benchmark(OperationsPerInvoke = 4), BenchmarkCategory("unrolled")]
        public long Unrolled()
        {
            calls++;
            long a = 0, b = 0, c = 0, d = 0;
            for (int i = 0; i + 3 < values.Length; i += 4) { a += values[i]; b += values[i + 1]; c += values[i + 2]; d += values[i + 3]; }
            return a + b + c + d;
        }
    }

    public class Strings
    {
        [ParamsSource(nameof(Lengths))]
        public int Length { get; set; }

        public static IEnumerable<int> Lengths() => new[] { 1, 8 };

        public IEnumerable<object[]> Pairs()
        {
            yield return new object[] { 1, 2 };
        }

        string padding;
        int calls, iterations;

        [GlobalSetup(Target = nameof(Repeat))]
        public void SetupRepeat() => padding = new string(' ', Length);

        [GlobalCleanup(Targets = new[] { nameof(Repeat), nameof(Add) })]
        public void Cleanup() => Console.WriteLine($"cleanup Strings Length={Length} padding={(padding == null ? "none" : padding.Length.ToString())}: {calls} call(s), {iterations} iteration(s)");

        [IterationSetup(Target = nameof(Add))]
        public void BeforeBatch() => iterations++;

        [IterationCleanup]
        public void AfterBatch() { }

        [Benchmark]
        [Arguments("a", 2)]
        [Arguments("bc", 3)]
        public string Repeat(string text, int times)
        {
            calls++;
            return string.Concat(Enumerable.Repeat(text + padding, times));
        }

        [Benchmark, ArgumentsSource(nameof(Pairs))]
        public int Add(int a, int b)
        {
            calls++;
            return a + b + Length;
        }
    }

    public class Shapes
    {
        [ParamsAllValues]
        public Shape Kind;

        static int calls;

        [GlobalCleanup]
        public void Cleanup() => Console.WriteLine($"cleanup Shapes Kind={Kind}: {calls} call(s) in all");

        [Benchmark]
        public static int Area() => ++calls;
    }

#if BAD
    public class Spins
    {
        static void Spin()
        {
            var t = System.Diagnostics.Stopwatch.StartNew();
            while (t.Elapsed.TotalMilliseconds < 1) { }
        }

        [IterationSetup(Target = nameof(Untimed))]
        public void Before() => Spin();

        [IterationCleanup(Target = nameof(Untimed))]
        public void After() => Spin();

        [Benchmark]
        public int Untimed() => 1;

        [Benchmark]
        public int Timed() { Spin(); return 1; }
    }

    public class WrongParams
    {
        [Params("ten")]
        public int N;

        [Benchmark]
        public int Work() => N;
    }

    public class WrongCount
    {
        [Benchmark, Arguments(1, 2)]
        public int Work(int a) => a;
    }

    public class Throws
    {
        [Benchmark]
        public int Fine() => 1;

        [Benchmark]
        public int Broken() => throw new InvalidOperationException("the sum was wrong, as the test asked");
    }

    public class SetupThrows
    {
        [GlobalSetup]
        public void Setup() => throw new InvalidOperationException("the setup failed, as the test asked");

        [Benchmark]
        public int Work() => 1;
    }

    public class CleanupThrows
    {
        [GlobalCleanup]
        public void Cleanup() => throw new InvalidOperationException("the cleanup failed, as the test asked");

        [Benchmark]
        public int Work() => 1;
    }
#endif

    public static class Program
    {
        public static void Main(string[] args)
        {
            string only = Environment.GetEnvironmentVariable("BDN_SAMPLE_CLASS");
            if (only == "Sums")
                BenchmarkRunner.Run<Sums>(); // this process's arguments; sets Environment.ExitCode
            else if (only != null)
                Environment.Exit(BenchmarkRunner.Run(Type.GetType("Samples." + only), args: args).ExitCode);
            else
                BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        }
    }
}
