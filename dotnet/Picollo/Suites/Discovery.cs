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

    /// <summary>A benchmark as found: its name, its parameter (null: none; the library names
    /// it Name/Param), its work (k operations a call), its method, the loop the suite calls it
    /// from (null: none, the batch form called as it is) and its throughput (null: none).</summary>
    internal sealed class Discovered
    {
        public string Name;
        public string Param;
        public Action<ulong> Work;
        public MethodInfo Method;
        public MethodInfo Loop;
        public string Unit;
        public ulong PerOperation;
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
                var throughput = (ThroughputAttribute)m.GetCustomAttributes(typeof(ThroughputAttribute), true).FirstOrDefault();
                var arguments = m.GetCustomAttributes(typeof(ArgumentsAttribute), true).Cast<ArgumentsAttribute>().ToList();
                string name = attribute.Name ?? m.Name;
                if (arguments.Count == 0)
                {
                    found.Add(Declared(new Discovered { Name = name, Work = WorkOf(m, instance, null), Method = m, Loop = LoopOf(m, null) }, throughput, 1));
                    continue;
                }
                foreach (ArgumentsAttribute a in arguments)
                {
                    object value = Argument(m, a.Value);
                    string param = Convert.ToString(a.Value, System.Globalization.CultureInfo.InvariantCulture);
                    var d = new Discovered { Name = name, Param = param, Work = WorkOf(m, instance, new[] { value }), Method = m, Loop = LoopOf(m, new[] { value }) };
                    found.Add(Declared(d, throughput, throughput == null ? 1 : Whole(m, a.Value)));
                }
            }
            return found;
        }

        /// <summary><paramref name="d"/> with <paramref name="t"/>'s unit and its work times
        /// <paramref name="times"/> (the argument).</summary>
        static Discovered Declared(Discovered d, ThroughputAttribute t, ulong times)
        {
            if (t == null) return d;
            d.Unit = t.Unit;
            d.PerOperation = t.PerOperation * times;
            return d;
        }

        /// <summary><paramref name="value"/> as the type of <paramref name="m"/>'s first
        /// parameter; SuiteUsageException where it is not one.</summary>
        static object Argument(MethodInfo m, object value)
        {
            string where = "[Arguments] " + m.DeclaringType.Name + "." + m.Name + ": ";
            ParameterInfo[] ps = m.GetParameters();
            if (ps.Length == 0) throw new SuiteUsageException(where + "the method takes no argument");
            try { return Convert.ChangeType(value, ps[0].ParameterType, System.Globalization.CultureInfo.InvariantCulture); }
            catch (Exception e) when (e is InvalidCastException || e is FormatException || e is OverflowException)
            {
                throw new SuiteUsageException(where + value + " is not a " + ps[0].ParameterType.Name);
            }
        }

        /// <summary>The argument <paramref name="value"/> as a count (a [Throughput]'s factor);
        /// SuiteUsageException where it is not a whole number of at least 0.</summary>
        static ulong Whole(MethodInfo m, object value)
        {
            try { return Convert.ToUInt64(value, System.Globalization.CultureInfo.InvariantCulture); }
            catch (Exception e) when (e is InvalidCastException || e is FormatException || e is OverflowException)
            {
                throw new SuiteUsageException("[Throughput] " + m.DeclaringType.Name + "." + m.Name + ": the argument " + value + " is not a count");
            }
        }

        /// <summary>The work of method <paramref name="m"/>: bound at once when static, at its
        /// first call (which makes the class's instance) otherwise.</summary>
        static Action<ulong> WorkOf(MethodInfo m, Instance instance, object[] argument)
        {
            bool batch = CheckShape(m, argument != null);
            if (m.IsStatic) return Bind(m, null, batch, argument);
            instance.Check(m);
            Action<ulong> bound = null;
            return k =>
            {
                if (bound == null) bound = Bind(m, instance.Get(), batch, argument);
                bound(k);
            };
        }

        /// <summary>Whether <paramref name="m"/> is the batch form (takes <c>ulong k</c>);
        /// SuiteUsageException where the suite cannot call it.</summary>
        static bool CheckShape(MethodInfo m, bool argued)
        {
            string where = m.DeclaringType.Name + "." + m.Name;
            ParameterInfo[] ps = m.GetParameters().Skip(argued ? 1 : 0).ToArray();
            bool batch = ps.Length == 1 && ps[0].ParameterType == typeof(ulong);
            if (ps.Length > 1 || (ps.Length == 1 && !batch))
                throw new SuiteUsageException("[Benchmark] " + where + (argued
                    ? ": takes its argument, then nothing or a ulong (the batch size k)"
                    : ": takes nothing, or a ulong (the batch size k)"));
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
        static Action<ulong> Bind(MethodInfo m, object target, bool batch, object[] argument)
        {
            if (argument != null) return BindArgument(m, target, batch, argument[0]);
            Type r = m.ReturnType;
            if (r == typeof(void))
            {
                if (batch) return (Action<ulong>)Delegate.CreateDelegate(typeof(Action<ulong>), target, m);
                return Loop((Action)Delegate.CreateDelegate(typeof(Action), target, m));
            }
            Type shape = batch ? typeof(Func<,>).MakeGenericType(typeof(ulong), r) : typeof(Func<>).MakeGenericType(r);
            Delegate f = Delegate.CreateDelegate(shape, target, m);
            MethodInfo loop = typeof(Discovery).GetMethod(batch ? "Batch" : "Each", BindingFlags.NonPublic | BindingFlags.Static);
            return (Action<ulong>)loop.MakeGenericMethod(r).Invoke(null, new object[] { f });
        }

        /// <summary><see cref="Bind"/> of a method whose first parameter takes
        /// <paramref name="value"/>: a delegate of the method's own shape, called with it.</summary>
        static Action<ulong> BindArgument(MethodInfo m, object target, bool batch, object value)
        {
            Type a = m.GetParameters()[0].ParameterType, r = m.ReturnType;
            var inputs = batch ? new[] { a, typeof(ulong) } : new[] { a };
            bool none = r == typeof(void);
            Type shape = none
                ? System.Linq.Expressions.Expression.GetActionType(inputs)
                : System.Linq.Expressions.Expression.GetFuncType(inputs.Concat(new[] { r }).ToArray());
            Delegate f = Delegate.CreateDelegate(shape, target, m);
            string helper = (none ? "Run" : "Keep") + (batch ? "Batch" : "Each");
            Type[] types = none ? new[] { a } : new[] { a, r };
            MethodInfo loop = typeof(Discovery).GetMethod(helper, BindingFlags.NonPublic | BindingFlags.Static);
            return (Action<ulong>)loop.MakeGenericMethod(types).Invoke(null, new[] { f, value });
        }

        /// <summary>The method of the loop <see cref="Bind"/> wraps <paramref name="m"/> in
        /// (given <paramref name="argument"/>, as <see cref="WorkOf"/> is), null where the
        /// suite calls the method itself: the same helper's loop around no delegate, made for
        /// its method alone (a placement compiles it before any run, Placement.cs).</summary>
        internal static MethodInfo LoopOf(MethodInfo m, object[] argument)
        {
            Type r = m.ReturnType;
            bool none = r == typeof(void);
            bool batch = m.GetParameters().Length == (argument == null ? 1 : 2);
            if (argument == null && none) return batch ? null : Loop(null).Method;
            Type a = argument == null ? null : m.GetParameters()[0].ParameterType;
            Type[] types = a == null ? new[] { r } : none ? new[] { a } : new[] { a, r };
            string helper = (a == null ? "" : none ? "Run" : "Keep") + (batch ? "Batch" : "Each");
            MethodInfo loop = typeof(Discovery).GetMethod(helper, BindingFlags.NonPublic | BindingFlags.Static);
            object[] inputs = a == null ? new object[] { null } : new[] { null, argument[0] };
            return ((Action<ulong>)loop.MakeGenericMethod(types).Invoke(null, inputs)).Method;
        }

        /// <summary>The no-argument form's loop around a method that returns nothing.</summary>
        static Action<ulong> Loop(Action op)
        {
            return k => { for (ulong i = 0; i < k; i++) op(); };
        }

        static Action<ulong> RunEach<A>(Action<A> op, A value)
        {
            return k => { for (ulong i = 0; i < k; i++) op(value); };
        }

        static Action<ulong> RunBatch<A>(Action<A, ulong> operations, A value)
        {
            return k => operations(value, k);
        }

        static Action<ulong> KeepEach<A, T>(Func<A, T> op, A value)
        {
            return k => { for (ulong i = 0; i < k; i++) Sink<T>.Value = op(value); };
        }

        static Action<ulong> KeepBatch<A, T>(Func<A, ulong, T> operations, A value)
        {
            return k => { Sink<T>.Value = operations(value, k); };
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
