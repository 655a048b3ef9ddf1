// Where a worker's JIT code lands. A tight loop's time can hang on where its instructions sit
// against the CPU's 32- and 64-byte fetch blocks, and a JIT places a method after whatever it
// compiled before it: every worker process of one build compiles the same methods in the same
// order, so all of them place a benchmark alike, and the processes (the unit the verdict
// samples) share that placement instead of sampling it. So a worker compiles each benchmark
// before it runs anything, each right after a throwaway method of a drawn length, so that
// the benchmark's code (and its loop's, where the suite loops over it) starts at an offset
// drawn afresh for each benchmark in each process (docs/suites.md, "C#").

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;

namespace Picollo.Suites
{
    /// <summary>The drawn placement of a worker's benchmarks in JIT code memory.</summary>
    static class Placement
    {
        /// <summary>The flag a build's worker process is started with.</summary>
        internal const string WorkerFlag = "--picollo-worker";

        /// <summary>The most IL steps of a throwaway method: under mono 6.8 (x64) a step is a
        /// little over 16 bytes of code (counts 0, 1, 2, 3 put the next method 0, 16, 32, 48
        /// bytes on, modulo 64), so the draw spans about 16 blocks of 64 bytes.</summary>
        internal const int MostSteps = 63;

        /// <summary>The variable that fixes the count of steps (0 to <see cref="MostSteps"/>)
        /// for every benchmark: a test's way to compare placements, or to switch the draw
        /// off. Unset, each benchmark's count is drawn.</summary>
        internal const string Variable = "PICOLLO_SUITE_CODE_PAD";

        /// <summary>Compiles each of <paramref name="benchmarks"/> (its method and the loop
        /// the suite calls it from, where there is one) right after a throwaway method of a
        /// drawn count of steps. A bad <see cref="Variable"/> throws
        /// <see cref="SuiteUsageException"/>.</summary>
        internal static void Place(List<Discovered> benchmarks)
        {
            string given = Environment.GetEnvironmentVariable(Variable);
            int fixedSteps = Given(given);
            // Guid: fresh in each process, where a clock's ticks may repeat between two
            // workers started together.
            var draw = new Random(Guid.NewGuid().GetHashCode());
            ModuleBuilder module = AssemblyBuilder.DefineDynamicAssembly(
                new AssemblyName("PicolloPlacement"), AssemblyBuilderAccess.Run).DefineDynamicModule("PicolloPlacement");
            for (int i = 0; i < benchmarks.Count; i++)
            {
                int steps = fixedSteps >= 0 ? fixedSteps : draw.Next(MostSteps + 1);
                Pad(module, "Pad" + i, steps)(1); // compiled and run: its code is now placed
                Compile(benchmarks[i].Method);
                Compile(benchmarks[i].Loop);
            }
        }

        /// <summary>The count <paramref name="given"/> names, or -1 where it is unset.</summary>
        static int Given(string given)
        {
            if (string.IsNullOrEmpty(given)) return -1;
            int steps;
            if (!int.TryParse(given, out steps) || steps < 0 || steps > MostSteps)
                throw new SuiteUsageException(Variable + "=" + given + ": give a count of 0 to " + MostSteps);
            return steps;
        }

        /// <summary>The method's code, compiled now where it is not yet (none given, or one
        /// of a type left generic, is compiled at its first call, wherever that lands).
        /// Mono compiles for the function pointer; .NET for PrepareMethod, where the pointer
        /// may be a stub's.</summary>
        static void Compile(MethodInfo m)
        {
            if (m == null || m.ContainsGenericParameters || m.DeclaringType.ContainsGenericParameters) return;
            try
            {
                RuntimeHelpers.PrepareMethod(m.MethodHandle);
                m.MethodHandle.GetFunctionPointer();
            }
            catch (Exception)
            {
                // A type that cannot be initialized (a static constructor that throws): left
                // to its first call, where the error fails the benchmark as it would unplaced.
            }
        }

        /// <summary>A method of <paramref name="steps"/> dependent steps on its argument, in
        /// a dynamic assembly: its code goes to the runtime's code memory, where the next
        /// method's goes (mono gives a DynamicMethod a code heap of its own, which would move
        /// nothing).</summary>
        static Func<ulong, ulong> Pad(ModuleBuilder module, string name, int steps)
        {
            TypeBuilder type = module.DefineType(name, TypeAttributes.Public | TypeAttributes.Abstract | TypeAttributes.Sealed);
            MethodBuilder method = type.DefineMethod("Steps", MethodAttributes.Public | MethodAttributes.Static,
                typeof(ulong), new[] { typeof(ulong) });
            ILGenerator il = method.GetILGenerator();
            il.Emit(OpCodes.Ldarg_0);
            for (int i = 0; i < steps; i++)
            {
                // x = (x ^ c) * 3: nothing the JIT can fold away.
                il.Emit(OpCodes.Ldc_I8, (long)(0x9E3779B97F4A7C15UL >> (i % 61)));
                il.Emit(OpCodes.Xor);
                il.Emit(OpCodes.Ldc_I4_3);
                il.Emit(OpCodes.Conv_U8);
                il.Emit(OpCodes.Mul);
            }
            il.Emit(OpCodes.Ret);
            MethodInfo made = type.CreateType().GetMethod("Steps");
            return (Func<ulong, ulong>)Delegate.CreateDelegate(typeof(Func<ulong, ulong>), made);
        }
    }
}
