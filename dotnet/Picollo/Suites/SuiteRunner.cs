// The runner of a C# suite: the class's [Benchmark] methods registered with the library's
// suite (picollo_suite_*), which runs them as the command line says, as it runs a Rust, C or
// C++ suite: the same flags, lines, outputs and exit statuses (docs/suites.md). An exception
// in a benchmark stops at its callback and fails it with its message (picollo_suite_fail):
// it never crosses into the library. Builds of a suite start as workers of `--against` the
// way this process started: `mono ASSEMBLY`, `dotnet ASSEMBLY.dll`, or the executable.

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;

namespace Picollo.Suites
{
    /// <summary>Runs a class's suite: <c>return Suite.Run&lt;Sums&gt;(args);</c> in
    /// <c>Main</c>.</summary>
    public static class Suite
    {
        /// <summary>The benchmarks of <typeparamref name="T"/>, run as <paramref name="args"/>
        /// say (see <see cref="SuiteRunner.Run(Type, string[], BenchOptions)"/>).</summary>
        public static int Run<T>(string[] args, BenchOptions options = null)
        {
            return SuiteRunner.Run(typeof(T), args, options);
        }

        /// <summary>Stops the clock of the batch running on this thread: what runs until
        /// <see cref="Resume"/> (or the batch's end) is left out of its time; perf counters
        /// still count it. Pausing while paused does nothing. A pair leaves the cost of two
        /// P/Invoke calls in the figure (docs/suites.md, "Untimed stretches").</summary>
        public static void Pause()
        {
            BenchNative.picollo_suite_pause();
        }

        /// <summary>Starts again the clock <see cref="Pause"/> stopped; resuming while running
        /// does nothing.</summary>
        public static void Resume()
        {
            BenchNative.picollo_suite_resume();
        }
    }

    /// <summary>Runs the [Benchmark] methods of a class with the library's runner.</summary>
    public static class SuiteRunner
    {
        /// <summary>The exit status of a bad argument or a suite that cannot run as written
        /// (docs/suites.md lists them all).</summary>
        public const int UsageStatus = 2;

        /// <summary>The [Benchmark] methods of <paramref name="type"/> (see
        /// <see cref="BenchmarkAttribute"/>), run as <paramref name="args"/> (Main's, without
        /// the program's name) say, with <paramref name="options"/>' settings (its name
        /// aside); returns the exit status for Main to return. Without a flag it measures each
        /// benchmark; <c>--test</c> runs each once; <c>--list</c>; <c>--filter</c> (a part of
        /// the name, or a glob of the whole name); and every flag of the library's runner:
        /// FILTER, <c>--exact</c>, <c>--regex</c>, <c>--budget</c>, <c>--save</c>,
        /// <c>--baseline</c>, <c>--against OTHER_ASSEMBLY</c>, ... What went wrong is printed
        /// to the standard error. Bad <paramref name="options"/> throw ArgumentException, as
        /// <see cref="Bench.Run(Action, BenchOptions)"/> does.</summary>
        public static int Run(Type type, string[] args, BenchOptions options = null)
        {
            if (type == null) throw new ArgumentNullException("type");
            if (args == null) throw new ArgumentNullException("args");
            List<Discovered> benchmarks;
            List<string> translated;
            try
            {
                benchmarks = Discovery.Of(type);
                translated = SuiteArgs.Translate(args);
            }
            catch (SuiteUsageException e)
            {
                Console.Error.WriteLine("error: " + e.Message);
                return UsageStatus;
            }
            return Run(type.Name, type.Assembly, benchmarks, translated, options);
        }

        /// <summary>The suite <paramref name="name"/> of <paramref name="benchmarks"/> (from
        /// <paramref name="assembly"/>), run as the runner's arguments
        /// <paramref name="translated"/> say; returns the exit status.</summary>
        internal static int Run(string name, Assembly assembly, List<Discovered> benchmarks, List<string> translated, BenchOptions options)
        {
            var callbacks = new List<BenchNative.Work>();
            string scripts = Path.Combine(Path.GetTempPath(), "picollo-suite-" + Process.GetCurrentProcess().Id);
            Directory.CreateDirectory(scripts);
            try
            {
                HostedBuilds(translated, scripts);
                SuiteHandle made;
                try
                {
                    // A worker compiles each benchmark now, at a drawn offset (Placement.cs).
                    if (translated.Contains(Placement.WorkerFlag)) Placement.Place(benchmarks);
                    made = Make(name, assembly, options ?? new BenchOptions(), benchmarks, callbacks);
                }
                catch (SuiteUsageException e)
                {
                    Console.Error.WriteLine("error: " + e.Message);
                    return UsageStatus;
                }
                using (SuiteHandle suite = made)
                {
                    Console.Out.Flush(); // what the program printed goes first
                    int status = RunMain(suite, translated);
                    GC.KeepAlive(callbacks);
                    return status;
                }
            }
            finally
            {
                Directory.Delete(scripts, true);
            }
        }

        /// <summary>The library's suite of <paramref name="benchmarks"/>; their callbacks are
        /// added to <paramref name="callbacks"/>, which the caller keeps alive.</summary>
        static SuiteHandle Make(string suiteName, Assembly assembly, BenchOptions options, List<Discovered> benchmarks, List<BenchNative.Work> callbacks)
        {
            byte[] name = Utf8.ToNative(suiteName);
            SuiteHandle suite = Handles.Made((out SuiteHandle made) => BenchNative.picollo_suite_new(name, out made));
            try
            {
                Configure(suite, options, assembly);
                SetWorker(suite);
                foreach (Discovered b in benchmarks)
                    Add(suite, b, callbacks);
                return suite;
            }
            catch
            {
                suite.Dispose();
                throw;
            }
        }

        /// <summary>Registers <paramref name="b"/> (as name/param where it has a parameter: the
        /// library forms the name) and its throughput; its callback goes in
        /// <paramref name="callbacks"/>.</summary>
        static void Add(SuiteHandle suite, Discovered b, List<BenchNative.Work> callbacks)
        {
            BenchNative.Work callback = Callback(b.Work);
            callbacks.Add(callback);
            IntPtr work = Marshal.GetFunctionPointerForDelegate(callback);
            byte[] name = Utf8.ToNative(b.Name), param = b.Param == null ? null : Utf8.ToNative(b.Param);
            PicolloException.Check(param == null
                ? BenchNative.picollo_suite_add(suite, name, work, IntPtr.Zero)
                : BenchNative.picollo_suite_add_param(suite, name, param, work, IntPtr.Zero));
            if (b.Unit == null) return;
            // A throughput the library refuses as declared (its unit, 0) is the suite's to fix.
            Status st = BenchNative.picollo_suite_set_throughput(suite, name, param, Utf8.ToNative(b.Unit), b.PerOperation);
            if (st != Status.Ok)
                throw new SuiteUsageException("[Throughput] " + b.Name + ": " + Utf8.FromNative(Native.picollo_last_error_message()));
        }

        /// <summary>The settings of <paramref name="options"/>, and whether
        /// <paramref name="assembly"/> (the benchmarks') was built without optimization.</summary>
        static unsafe void Configure(SuiteHandle suite, BenchOptions options, Assembly assembly)
        {
            BenchConfig c = options.ToConfig();
            byte[] counters = Utf8.ToNative(options.CounterList());
            byte[] unoptimized = Utf8.ToNative(Bench.UnoptimizedReason(assembly));
            fixed (byte* list = counters)
            fixed (byte* u = unoptimized)
            {
                c.Counters = (IntPtr)list;
                c.Unoptimized = (IntPtr)u;
                PicolloException.Check(BenchNative.picollo_suite_set_config(suite, ref c));
            }
        }

        /// <summary>This process's runtime host (mono, dotnet) where it runs an assembly
        /// through one, else null (an apphost executable).</summary>
        static string Host()
        {
            string host = Process.GetCurrentProcess().MainModule.FileName;
            bool hosted = Type.GetType("Mono.Runtime") != null || Path.GetFileNameWithoutExtension(host) == "dotnet";
            return hosted ? host : null;
        }

        /// <summary>This build's worker starts as this process did: the runtime's host given
        /// the entry assembly's path, or the executable itself. Without an entry assembly,
        /// the library's default (this process's executable).</summary>
        static void SetWorker(SuiteHandle suite)
        {
            Assembly entry = Assembly.GetEntryAssembly();
            if (entry == null || string.IsNullOrEmpty(entry.Location)) return;
            string host = Host();
            string[] command = host != null
                ? new[] { host, entry.Location }
                : new[] { Process.GetCurrentProcess().MainModule.FileName };
            using (var pinned = new PinnedStrings(command))
                PicolloException.Check(BenchNative.picollo_suite_set_worker(suite, pinned.Pointers, new UIntPtr((ulong)command.Length)));
        }

        /// <summary>Under a runtime host, each build that <c>--against</c> and <c>--head</c>
        /// name is an assembly the host runs: it is replaced by a script in
        /// <paramref name="dir"/> that starts it so, as the runner starts a build (a program
        /// given <c>--picollo-worker</c>).</summary>
        static void HostedBuilds(List<string> args, string dir)
        {
            string host = Host();
            if (host == null) return;
            for (int i = 0; i < args.Count; i++)
            {
                string a = args[i];
                bool valued = (a == "--against" || a == "--head") && i + 1 < args.Count;
                bool inline = a.StartsWith("--against=") || a.StartsWith("--head=");
                if (!valued && !inline) continue;
                int at = valued ? i + 1 : i;
                string flag = valued ? null : a.Substring(0, a.IndexOf('='));
                string build = valued ? args[at] : a.Substring(a.IndexOf('=') + 1);
                string script = Path.Combine(dir, "build" + i + ".sh");
                File.WriteAllText(script, "#!/bin/sh\nexec " + Quoted(host) + " " + Quoted(Path.GetFullPath(build)) + " \"$@\"\n");
                using (Process chmod = Process.Start("chmod", "+x " + Quoted(script))) chmod.WaitForExit();
                args[at] = flag == null ? script : flag + "=" + script;
            }
        }

        /// <summary><paramref name="text"/> in single quotes for the shell.</summary>
        static string Quoted(string text)
        {
            return "'" + text.Replace("'", "'\\''") + "'";
        }

        /// <summary>picollo_suite_main with the program's name and <paramref name="args"/>.</summary>
        static int RunMain(SuiteHandle suite, List<string> args)
        {
            Assembly entry = Assembly.GetEntryAssembly();
            args.Insert(0, entry != null ? entry.GetName().Name : "suite");
            using (var argv = new PinnedStrings(args))
                return BenchNative.picollo_suite_main(suite, argv.Pointers.Length, argv.Pointers);
        }

        /// <summary>The callback of <paramref name="work"/>: an exception it throws fails the
        /// benchmark with the exception's type and message, and returns to the library.</summary>
        static BenchNative.Work Callback(Action<ulong> work)
        {
            return (ctx, k) =>
            {
                try { work(k); }
                catch (Exception e)
                {
                    // Outside a run the library refuses the call with a status; nothing to do then.
                    BenchNative.picollo_suite_fail(Utf8.ToNative(Describe(e)));
                }
            };
        }

        /// <summary><c>Type: message</c>, without NUL characters (the library takes C text).</summary>
        static string Describe(Exception e)
        {
            string message;
            try { message = e.GetType().Name + ": " + e.Message; }
            catch (Exception) { message = e.GetType().Name + " (its message threw)"; }
            return message.Replace('\0', ' ');
        }

        /// <summary>Strings as NUL-terminated UTF-8, pinned until disposed, and their
        /// addresses.</summary>
        sealed class PinnedStrings : IDisposable
        {
            readonly GCHandle[] _pins;

            public PinnedStrings(IList<string> strings)
            {
                _pins = new GCHandle[strings.Count];
                Pointers = new IntPtr[strings.Count];
                try
                {
                    for (int i = 0; i < strings.Count; i++)
                    {
                        _pins[i] = GCHandle.Alloc(Utf8.ToNative(strings[i]), GCHandleType.Pinned);
                        Pointers[i] = _pins[i].AddrOfPinnedObject();
                    }
                }
                catch
                {
                    Dispose();
                    throw;
                }
            }

            public IntPtr[] Pointers { get; private set; }

            public void Dispose()
            {
                foreach (GCHandle pin in _pins)
                    if (pin.IsAllocated) pin.Free();
            }
        }
    }
}
