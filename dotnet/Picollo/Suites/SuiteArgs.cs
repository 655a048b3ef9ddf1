// A C# suite's command line in the library runner's terms: BenchmarkDotNet's `--filter`
// (`-f`; several values; a glob with * and ?, matched against the whole name) becomes the
// runner's FILTER (a name's part) or, where a value is a glob, one --regex; `--list flat` and
// `--list tree` become `--list`. Every other argument goes to the runner as it is.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

namespace Picollo.Suites
{
    internal static class SuiteArgs
    {
        /// <summary>The runner's arguments for <paramref name="args"/> (without the program's
        /// name); SuiteUsageException for a --filter without a value, or globs beside
        /// --regex.</summary>
        public static List<string> Translate(string[] args)
        {
            var passed = new List<string>();
            var filters = new List<string>();
            for (int i = 0; i < args.Length; i++)
            {
                string a = args[i];
                if (a == "--filter" || a == "-f")
                {
                    int first = i + 1;
                    while (i + 1 < args.Length && !args[i + 1].StartsWith("-", StringComparison.Ordinal)) filters.Add(args[++i]);
                    if (i < first) throw new SuiteUsageException(a + " needs a value: a part of a benchmark's name, or a glob (* and ?) of the whole name");
                    continue;
                }
                if (a.StartsWith("--filter=", StringComparison.Ordinal))
                {
                    filters.Add(a.Substring("--filter=".Length));
                    continue;
                }
                passed.Add(a);
                bool bdnListStyle = a == "--list" && i + 1 < args.Length && (args[i + 1] == "flat" || args[i + 1] == "tree");
                if (bdnListStyle) i++;
            }
            if (!filters.Any(IsGlob))
            {
                passed.AddRange(filters);
                return passed;
            }
            if (passed.Any(a => a == "--regex" || a.StartsWith("--regex=", StringComparison.Ordinal)))
                throw new SuiteUsageException("--filter with a glob (* or ?) and --regex: give one of them");
            passed.Add("--regex");
            passed.Add(string.Join("|", filters.Select(Pattern)));
            return passed;
        }

        static bool IsGlob(string filter)
        {
            return filter.IndexOf('*') >= 0 || filter.IndexOf('?') >= 0;
        }

        /// <summary>A filter as a regular expression (the runner's syntax): a glob matches the
        /// whole name (* any text, ? one character), any other value a part of it.</summary>
        static string Pattern(string filter)
        {
            var re = new StringBuilder(IsGlob(filter) ? "(?:^" : "(?:");
            foreach (char c in filter)
            {
                if (c == '*') re.Append(".*");
                else if (c == '?') re.Append('.');
                else
                {
                    if ("\\.+()|[]{}^$".IndexOf(c) >= 0) re.Append('\\');
                    re.Append(c);
                }
            }
            return re.Append(IsGlob(filter) ? "$)" : ")").ToString();
        }
    }
}
