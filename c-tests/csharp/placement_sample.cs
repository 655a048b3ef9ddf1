// The suite c-tests/csharp/placement.sh runs: one tight loop, "add", whose worker processes
// each append to the file PLACEMENT_LOG names, as they exit, where the JIT placed the
// benchmark's code: its entry point's address modulo 64.

using System;
using System.IO;
using Picollo.Suites;

public class Placed
{
    [Benchmark("add")]
    public static ulong Add(ulong k)
    {
        ulong x = 0;
        for (ulong i = 0; i < k * 100; i++) x += i;
        return x;
    }

    public static int Main(string[] args)
    {
        int status = Suite.Run<Placed>(args);
        string log = Environment.GetEnvironmentVariable("PLACEMENT_LOG");
        if (log != null && Array.IndexOf(args, "--picollo-worker") >= 0)
        {
            // Compiled already (the worker ran it), so this reads its place, moving nothing.
            long at = typeof(Placed).GetMethod("Add").MethodHandle.GetFunctionPointer().ToInt64();
            File.AppendAllText(log, (at % 64) + "\n");
        }
        return status;
    }
}
