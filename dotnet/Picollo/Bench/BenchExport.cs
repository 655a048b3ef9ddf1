// Bench.Formats, Bench.Export and Bench.Summary: the library's result formats by name, results
// in one of them (or in a picollo_bench_format) and the Markdown summary of comparisons, all
// written by the library (picollo_bench_format_names, picollo_bench_results_format,
// picollo_bench_summary) from arrays of result handles, each held for the call; a format the
// library adds is reachable here by its name without a new method.

using System;
using System.Collections.Generic;

namespace Picollo
{
    public static partial class Bench
    {
        /// <summary>The names of the result formats, in the library's order: the forms of one
        /// result ("report", "line", "html", ...), then the formats of a suite ("bmf",
        /// "junit", ...).</summary>
        public static string[] Formats
        {
            get
            {
                string text = Text.Render(BenchNative.picollo_bench_format_names);
                return text.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
            }
        }

        /// <summary>The results as one suite in the result format called
        /// <paramref name="name"/> (<see cref="Formats"/>; a form of one result takes one
        /// result), one benchmark each by its name (a name given again gets " (2)"). Throws
        /// <see cref="ArgumentNullException"/> for null results, a null among them or a null
        /// name, and <see cref="ArgumentException"/> (PicolloArgumentException) for none, an
        /// unknown name (the message lists the names) or a form of one result given
        /// several.</summary>
        public static string Export(IEnumerable<BenchResult> results, string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            var list = Listed(results, "results");
            byte[] native = Utf8.ToNative(name);
            return WithHandles(list, handles => Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_results_format(handles, new UIntPtr((ulong)handles.Length),
                    native, buf, len, out needed)));
        }

        /// <summary>Writes <see cref="Export(IEnumerable{BenchResult}, string)"/> of the
        /// results to <paramref name="path"/> (UTF-8).</summary>
        public static void WriteExport(IEnumerable<BenchResult> results, string name, string path)
        {
            System.IO.File.WriteAllText(path, Export(results, name));
        }

        /// <summary>The results in <paramref name="format"/> (<see cref="BenchFormat.Bencher"/>,
        /// <see cref="BenchFormat.GithubAction"/>, <see cref="BenchFormat.GoogleBenchmark"/> or
        /// <see cref="BenchFormat.Document"/>), one benchmark each by its name (a name given
        /// again gets " (2)"). Throws <see cref="ArgumentNullException"/> for null results
        /// or a null among them, and <see cref="ArgumentException"/>
        /// (PicolloArgumentException) for none or a format of one result alone.</summary>
        public static string Export(IEnumerable<BenchResult> results, BenchFormat format)
        {
            var list = Listed(results, "results");
            return WithHandles(list, handles => Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_results_text(handles, new UIntPtr((ulong)handles.Length),
                    (uint)format, buf, len, out needed)));
        }

        /// <summary>Writes <see cref="Export(IEnumerable{BenchResult}, BenchFormat)"/> of the
        /// results to <paramref name="path"/> (UTF-8).</summary>
        public static void WriteExport(IEnumerable<BenchResult> results, BenchFormat format, string path)
        {
            System.IO.File.WriteAllText(path, Export(results, format));
        }

        /// <summary>The Markdown summary of the comparisons (each B against its A, judged
        /// again as <see cref="Compare(BenchResult, BenchResult)"/> judges them) for a CI job:
        /// a head line counting the verdicts, one table of every verdict (an emoji, a symbol
        /// and a word each), what changed with its percentiles, the rest in
        /// <c>&lt;details&gt;</c>, the method and conditions last, under GitHub's 1 MiB limit
        /// of a step's summary. Append it to the file GITHUB_STEP_SUMMARY names to show it on
        /// the run's page. Throws <see cref="ArgumentNullException"/> for null comparisons or a
        /// null among them, <see cref="ArgumentException"/> for none, and
        /// <see cref="InvalidOperationException"/> for one judged on runs apart (it holds no
        /// result A) or on a metric other than time (the summary would judge it on
        /// time).</summary>
        public static string Summary(IEnumerable<BenchComparison> comparisons)
        {
            if (comparisons == null) throw new ArgumentNullException("comparisons");
            var a = new List<BenchResult>();
            var b = new List<BenchResult>();
            foreach (BenchComparison c in comparisons)
            {
                if (c == null) throw new ArgumentNullException("comparisons", "a comparison is null");
                if (c.A == null)
                    throw new InvalidOperationException(
                        "a comparison judged on runs apart holds no result A to summarize");
                if (c.Metric != "time")
                    throw new InvalidOperationException(
                        "a comparison judged on " + c.Metric + " would be summarized on time: " +
                        "summarize comparisons judged on time");
                a.Add(c.A);
                b.Add(c.B);
            }
            if (a.Count == 0) throw new ArgumentException("no comparison to summarize", "comparisons");
            return WithHandles(a, ha => WithHandles(b, hb => Text.Render((byte[] buf, UIntPtr len, out UIntPtr needed) =>
                BenchNative.picollo_bench_summary(ha, hb, new UIntPtr((ulong)ha.Length), buf, len, out needed))));
        }

        /// <summary>The results as a list, refusing null ones.</summary>
        static List<BenchResult> Listed(IEnumerable<BenchResult> results, string what)
        {
            if (results == null) throw new ArgumentNullException(what);
            var list = new List<BenchResult>(results);
            if (list.Contains(null)) throw new ArgumentNullException(what, "a result is null");
            return list;
        }

        /// <summary><paramref name="call"/> with the raw handles of the results, each kept
        /// alive (not freed by another thread's Dispose) until it returns.</summary>
        static T WithHandles<T>(List<BenchResult> results, Func<IntPtr[], T> call)
        {
            var held = new List<BenchResultHandle>(results.Count);
            try
            {
                var raw = new IntPtr[results.Count];
                for (int i = 0; i < results.Count; i++)
                {
                    bool added = false;
                    results[i].Handle.DangerousAddRef(ref added);
                    if (added) held.Add(results[i].Handle);
                    raw[i] = results[i].Handle.DangerousGetHandle();
                }
                return call(raw);
            }
            finally
            {
                foreach (BenchResultHandle h in held) h.DangerousRelease();
            }
        }
    }
}
