// The suite c-tests/csharp/placement.sh runs: one tight loop, "add", and "where", whose first
// call in a worker process appends to the file PLACEMENT_LOG names where the JIT placed
// add's code: its entry point's address modulo 64. A worker compiles every benchmark before
// it runs any (Placement.cs), so reading the address then moves nothing; and it is written
// while the worker runs, not as it exits, which a busy machine may cut short.

using System;
using System.IO;
using Picollo.Suites;

public class Placed
{
    static bool s_written;

    [Benchmark("add")]
    public static ulong Add(ulong k)
    {
        ulong x = 0;
        for (ulong i = 0; i < k * 100; i++) x += i;
        return x;
    }

    [Benchmark("where")]
    public static void Where()
    {
        string log = Environment.GetEnvironmentVariable("PLACEMENT_LOG");
        if (s_written || log == null) return;
        s_written = true;
        long at = typeof(Placed).GetMethod("Add").MethodHandle.GetFunctionPointer().ToInt64();
        File.AppendAllText(log, (at % 64) + "\n");
    }

    public static int Main(string[] args) { return Suite.Run<Placed>(args); }
}
