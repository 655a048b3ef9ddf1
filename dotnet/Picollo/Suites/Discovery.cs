// The [Benchmark] methods of a class, found by reflection, each turned into the work the
// library calls: a delegate that runs k operations. A method of a shape the suite cannot call
// is a SuiteUsageException naming it, before anything runs.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.ExceptionServices;

namespace Picollo.Suites
{
    /// <summary>A suite the runner cannot run as written: a [Benchmark] method it cannot call
    /// (parameters other than one <c>ulong</c>, a generic method, an instance method of a
    /// class without a parameterless constructor, a return type a delegate cannot have), or a
    /// flag of its own without its value. The runner prints the message and exits with status
    /// 2, before anything runs.</summary>
    internal sealed class SuiteUsageException : Exception
    {
        public SuiteUsageException(string message) : base(message) { }
    }

    /// <summary>A benchmark as found: its name and its work (k operations a call).</summary>
    internal sealed class Discovered
    {
        public string Name;
        public Action<ulong> Work;
    }

    internal static class Discovery
    {
        const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance;

        /// <summary>The benchmarks of <paramref name="type"/>, in the order they are declared.</summary>
        public static List<Discovered> Of(Type type)
        {
            if (type == null) throw new ArgumentNullException("type");
            var methods = type.GetMethods(All)
                .Where(m => m.IsDefined(typeof(BenchmarkAttribute), true))
                .OrderBy(m => m.MetadataToken);
            var instance = new Instance(type);
            var found = new List<Discovered>();
            foreach (MethodInfo m in methods)
            {
                var attribute = (BenchmarkAttribute)m.GetCustomAttributes(typeof(BenchmarkAttribute), true)[0];
                found.Add(new Discovered { Name = attribute.Name ?? m.Name, Work = WorkOf(m, instance) });
            }
            return found;
        }

        /// <summary>The work of method <paramref name="m"/>: bound at once when static, at its
        /// first call (which makes the class's instance) otherwise.</summary>
        static Action<ulong> WorkOf(MethodInfo m, Instance instance)
        {
            bool batch = CheckShape(m);
            if (m.IsStatic) return Bind(m, null, batch);
            instance.Check(m);
            Action<ulong> bound = null;
            return k =>
            {
                if (bound == null) bound = Bind(m, instance.Get(), batch);
                bound(k);
            };
        }

        /// <summary>Whether <paramref name="m"/> is the batch form (takes <c>ulong k</c>);
        /// SuiteUsageException where the suite cannot call it.</summary>
        static bool CheckShape(MethodInfo m)
        {
            string where = m.DeclaringType.Name + "." + m.Name;
            ParameterInfo[] ps = m.GetParameters();
            bool batch = ps.Length == 1 && ps[0].ParameterType == typeof(ulong);
            if (ps.Length > 1 || (ps.Length == 1 && !batch))
                throw new SuiteUsageException("[Benchmark] " + where + ": takes nothing, or a ulong (the batch size k)");
            if (m.ContainsGenericParameters)
                throw new SuiteUsageException("[Benchmark] " + where + ": a generic method; make one method per type");
            Type r = m.ReturnType;
            if (r.IsByRef || r.IsPointer)
                throw new SuiteUsageException("[Benchmark] " + where + ": returns a " + r.Name + ", which a delegate cannot; return a value or nothing");
            return batch;
        }

        /// <summary>The work of <paramref name="m"/> on <paramref name="target"/> (null: static):
        /// a delegate bound to the method, looped k times unless it is the batch form, its
        /// result stored in <see cref="Sink{T}"/>.</summary>
        static Action<ulong> Bind(MethodInfo m, object target, bool batch)
        {
            Type r = m.ReturnType;
            if (r == typeof(void))
            {
                if (batch) return (Action<ulong>)Delegate.CreateDelegate(typeof(Action<ulong>), target, m);
                var op = (Action)Delegate.CreateDelegate(typeof(Action), target, m);
                return k => { for (ulong i = 0; i < k; i++) op(); };
            }
            Type shape = batch ? typeof(Func<,>).MakeGenericType(typeof(ulong), r) : typeof(Func<>).MakeGenericType(r);
            Delegate f = Delegate.CreateDelegate(shape, target, m);
            MethodInfo loop = typeof(Discovery).GetMethod(batch ? "Batch" : "Each", BindingFlags.NonPublic | BindingFlags.Static);
            return (Action<ulong>)loop.MakeGenericMethod(r).Invoke(null, new object[] { f });
        }

        static Action<ulong> Each<T>(Func<T> op)
        {
            return k => { for (ulong i = 0; i < k; i++) Sink<T>.Value = op(); };
        }

        static Action<ulong> Batch<T>(Func<ulong, T> operations)
        {
            return k => { Sink<T>.Value = operations(k); };
        }

        /// <summary>Where results go: a static field the JIT must write, so the work that made
        /// a result is not dead code.</summary>
        static class Sink<T>
        {
            public static T Value;
        }

        /// <summary>The one instance of a class whose instance methods are benchmarks, made
        /// when the first of them runs (a constructor that throws fails that benchmark).</summary>
        sealed class Instance
        {
            readonly Type _type;
            object _made;

            public Instance(Type type) { _type = type; }

            /// <summary>SuiteUsageException unless the class can be made without
            /// arguments.</summary>
            public void Check(MethodInfo m)
            {
                bool makeable = !_type.IsAbstract && (_type.IsValueType || _type.GetConstructor(Type.EmptyTypes) != null);
                if (!makeable)
                    throw new SuiteUsageException("[Benchmark] " + _type.Name + "." + m.Name +
                        ": an instance method of a class without a public parameterless constructor; make the method static or add one");
            }

            public object Get()
            {
                if (_made != null) return _made;
                try { _made = Activator.CreateInstance(_type); }
                catch (TargetInvocationException e) { ExceptionDispatchInfo.Capture(e.InnerException).Throw(); }
                return _made;
            }
        }
    }
}
