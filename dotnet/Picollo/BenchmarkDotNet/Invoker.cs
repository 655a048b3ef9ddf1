// A BenchmarkDotNet benchmark as the library's work (k calls a batch). As BenchmarkDotNet
// gives each benchmark its own instance, a benchmark's first call makes an instance, sets
// the class's parameters and runs its [GlobalSetup]; when the runner moves to another
// benchmark, that instance's [GlobalCleanup] runs (and again at the end). All of this is
// left out of the batch's time: the first call's setup, and [IterationSetup] and
// [IterationCleanup] around each batch, run paused (Suite.Pause; perf counters count them).

using System;
using System.Collections.Generic;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.ExceptionServices;
using System.Threading.Tasks;
using Picollo.BenchmarkDotNet.Attributes;
using Picollo.Suites;

namespace Picollo.BenchmarkDotNet
{
    internal sealed class Invoker
    {
        Definition _active;
        object _instance;
        Action _op;
        MethodInfo[] _before, _after;

        /// <summary>SuiteUsageException where <paramref name="m"/> cannot be called as a
        /// benchmark of <paramref name="type"/>.</summary>
        public static void CheckShape(Type type, MethodInfo m)
        {
            string where = "[Benchmark] " + type.Name + "." + m.Name;
            if (m.ContainsGenericParameters)
                throw new SuiteUsageException(where + ": a generic method; make one method per type");
            if (m.GetParameters().Any(p => p.ParameterType.IsByRef || p.ParameterType.IsPointer))
                throw new SuiteUsageException(where + ": a ref, out, in or pointer parameter; take the value");
            if (m.ReturnType.IsByRef || m.ReturnType.IsPointer)
                throw new SuiteUsageException(where + ": returns a " + m.ReturnType.Name + "; return a value or nothing");
            bool makeable = type.IsValueType || (!type.IsAbstract && type.GetConstructor(Type.EmptyTypes) != null);
            if (!makeable && !(type.IsAbstract && type.IsSealed))
                throw new SuiteUsageException(where + ": a class without a public parameterless constructor; add one");
        }

        /// <summary>A new instance of <paramref name="type"/> (null for a static class); what its
        /// constructor throws, as thrown.</summary>
        public static object Made(Type type)
        {
            if (type.IsAbstract && type.IsSealed) return null;
            try { return Activator.CreateInstance(type); }
            catch (TargetInvocationException e) { ExceptionDispatchInfo.Capture(e.InnerException).Throw(); throw; }
        }

        /// <summary>The library's work for <paramref name="c"/>: k calls, its result kept.</summary>
        public Action<ulong> WorkOf(Definition c)
        {
            return k =>
            {
                Suite.Pause();
                try
                {
                    if (_active != c) Switch(c);
                    Call(_instance, _before);
                }
                finally { Suite.Resume(); }
                Action op = _op;
                for (ulong i = 0; i < k; i++) op();
                // The batch ends paused: its time stops here.
                Suite.Pause();
                Call(_instance, _after);
            };
        }

        /// <summary>What the first [GlobalCleanup] that threw said (null: none threw): the
        /// benchmark it cleans up had already ended, so it fails the run, not a benchmark.</summary>
        public string CleanupFailure { get; private set; }

        /// <summary>Cleans up the benchmark that ran last (at the end of the run, and when
        /// the runner moves to another); a cleanup that throws is printed and kept in
        /// <see cref="CleanupFailure"/>.</summary>
        public void Finish()
        {
            Definition last = _active;
            _active = null;
            if (last == null) return;
            try { Call(_instance, Hooks(last, typeof(GlobalCleanupAttribute))); }
            catch (Exception e)
            {
                string failure = "[GlobalCleanup] of " + last.FullName + ": " + e.GetType().Name + ": " + e.Message;
                Console.Error.WriteLine("error: " + failure);
                if (CleanupFailure == null) CleanupFailure = failure;
            }
        }

        void Switch(Definition c)
        {
            Finish();
            _instance = Made(c.Type);
            foreach (var p in c.Params)
            {
                var field = p.Key as FieldInfo;
                if (field != null) field.SetValue(field.IsStatic ? null : _instance, p.Value);
                else Call(() => ((PropertyInfo)p.Key).SetValue(_instance, p.Value, null));
            }
            Call(_instance, Hooks(c, typeof(GlobalSetupAttribute)));
            _before = Hooks(c, typeof(IterationSetupAttribute));
            _after = Hooks(c, typeof(IterationCleanupAttribute));
            _op = Bind(c, _instance);
            _active = c;
        }

        /// <summary>The methods of <paramref name="c"/>'s class marked <paramref name="kind"/>
        /// for its method: those naming it as a target, else those naming none.</summary>
        static MethodInfo[] Hooks(Definition c, Type kind)
        {
            var marked = c.Type.GetMethods(Cases.All)
                .Select(m => new { m, a = m.GetCustomAttributes(kind, true).Cast<TargetedAttribute>().ToList() })
                .Where(x => x.a.Count > 0).OrderBy(x => x.m.MetadataToken).ToList();
            var named = marked.Where(x => x.a.Any(a => a.Targets != null && a.Targets.Contains(c.Method.Name))).Select(x => x.m).ToArray();
            return named.Length > 0 ? named : marked.Where(x => x.a.All(a => a.Targets == null || a.Targets.Length == 0)).Select(x => x.m).ToArray();
        }

        static void Call(object target, MethodInfo[] methods)
        {
            foreach (MethodInfo m in methods)
                Call(() => m.Invoke(m.IsStatic ? null : target, null));
        }

        /// <summary>Runs <paramref name="reflected"/>, throwing what the reflected call threw.</summary>
        static void Call(Action reflected)
        {
            try { reflected(); }
            catch (TargetInvocationException e) { ExceptionDispatchInfo.Capture(e.InnerException).Throw(); }
        }

        /// <summary>One call of <paramref name="c"/>'s method with its arguments, a task's
        /// result awaited, the result stored where the JIT must write it.</summary>
        static Action Bind(Definition c, object instance)
        {
            ParameterInfo[] ps = c.Method.GetParameters();
            var arguments = ps.Select((p, i) => (Expression)Expression.Constant(c.Arguments[i], p.ParameterType));
            Expression target = c.Method.IsStatic ? null : Expression.Constant(instance, c.Type);
            Expression call = Expression.Call(target, c.Method, arguments);
            MethodInfo awaiter = call.Type.GetMethod("GetAwaiter", Type.EmptyTypes);
            bool task = typeof(Task).IsAssignableFrom(call.Type) || call.Type.Name.StartsWith("ValueTask", StringComparison.Ordinal);
            if (awaiter != null && task)
                call = Expression.Call(Expression.Call(call, awaiter), awaiter.ReturnType.GetMethod("GetResult", Type.EmptyTypes));
            if (call.Type != typeof(void))
                call = Expression.Assign(Expression.Field(null, typeof(Consumed<>).MakeGenericType(call.Type).GetField("Value")), call);
            return Expression.Lambda<Action>(call).Compile();
        }

        /// <summary>Where results go: a static field the JIT must write, so the work that made
        /// a result is not dead code.</summary>
        static class Consumed<T>
        {
#pragma warning disable 649 // written by the compiled expressions
            public static T Value;
#pragma warning restore 649
        }
    }
}
