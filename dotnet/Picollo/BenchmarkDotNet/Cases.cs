// The benchmarks of BenchmarkDotNet classes as BenchmarkDotNet counts them: one a [Benchmark]
// method, combination of [Params] values and row of [Arguments], of each class (a generic
// class: of each closed class its [GenericTypeArguments] make). A definition the runner
// cannot run (a value of the wrong type, a row of the wrong length, a source that is not
// there) is a SuiteUsageException naming it: exit status 2 before anything runs.

using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using Picollo.BenchmarkDotNet.Attributes;
using Picollo.Suites;
using ArgumentsAttribute = Picollo.BenchmarkDotNet.Attributes.ArgumentsAttribute;
using BenchmarkAttribute = Picollo.BenchmarkDotNet.Attributes.BenchmarkAttribute;

namespace Picollo.BenchmarkDotNet
{
    /// <summary>One benchmark: a method, the values of the class's parameters, the
    /// method's arguments, and its names.</summary>
    internal sealed class Definition
    {
        public Type Type;
        public MethodInfo Method;
        public KeyValuePair<MemberInfo, object>[] Params;
        public object[] Arguments;
        public string[] Categories;
        public int OperationsPerInvoke;

        /// <summary><c>Namespace.Type.Method</c>: what --list flat prints and a glob matches.</summary>
        public string FilterName;

        /// <summary>The filter name with <c>(arg: 1, N: 10)</c>: the name Picollo gives it.</summary>
        public string FullName;
    }

    internal static class Cases
    {
        internal const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance;

        /// <summary>The benchmarks of <paramref name="types"/>, in their order, each class's
        /// by its parameters' combinations, then its methods in declaration order.</summary>
        public static List<Definition> Of(IEnumerable<Type> types)
        {
            var found = new List<Definition>();
            foreach (Type t in types.SelectMany(Closed).ToList()) found.AddRange(OfType(t));
            return found;
        }

        /// <summary><paramref name="type"/>, or for a generic class, a closed class a
        /// [GenericTypeArguments], in the order reflection gives them.</summary>
        static List<Type> Closed(Type type)
        {
            if (!type.IsGenericTypeDefinition) return new List<Type> { type };
            var given = type.GetCustomAttributes(typeof(GenericTypeArgumentsAttribute), false).Cast<GenericTypeArgumentsAttribute>().ToList();
            if (given.Count == 0)
                throw new SuiteUsageException(Names.BareName(type) + ": a generic class without [GenericTypeArguments(typeof(...))]; give it one a closed class");
            return given.Select(g =>
            {
                try { return type.MakeGenericType(g.GenericTypeArguments); }
                catch (ArgumentException e)
                {
                    string named = string.Join(", ", g.GenericTypeArguments.Select(a => a == null ? "null" : "typeof(" + a.Name + ")"));
                    throw new SuiteUsageException("[GenericTypeArguments(" + named + ")] " + Names.BareName(type) + ": " + e.Message.Split('\n')[0]);
                }
            }).ToList();
        }

        static List<Definition> OfType(Type type)
        {
            if (type.ContainsGenericParameters)
                throw new SuiteUsageException(Names.BareName(type) + ": a generic class with open type parameters; give it [GenericTypeArguments(typeof(...))]");
            var methods = type.GetMethods(All).Where(m => m.IsDefined(typeof(BenchmarkAttribute), true))
                .OrderBy(m => m.MetadataToken).ToList();
            methods.ForEach(m => Invoker.CheckShape(type, m));
            var rows = methods.ToDictionary(m => m, ArgumentRows);
            var found = new List<Definition>();
            foreach (var set in ParamSets(type))
                foreach (MethodInfo m in methods)
                    foreach (object[] row in rows[m])
                        found.Add(Case(type, m, set, row));
            return found;
        }

        static Definition Case(Type type, MethodInfo m, KeyValuePair<MemberInfo, object>[] set, object[] row)
        {
            var b = (BenchmarkAttribute)m.GetCustomAttributes(typeof(BenchmarkAttribute), true)[0];
            var c = new Definition { Type = type, Method = m, Params = set, Arguments = row };
            c.OperationsPerInvoke = b.OperationsPerInvoke;
            c.Categories = Categories(m);
            c.FilterName = Names.FilterName(type, m);
            c.FullName = Names.FullName(c);
            return c;
        }

        static string[] Categories(MethodInfo m)
        {
            IEnumerable<object> marks = m.GetCustomAttributes(typeof(BenchmarkCategoryAttribute), true)
                .Concat(m.DeclaringType.GetCustomAttributes(typeof(BenchmarkCategoryAttribute), true))
                .Concat(m.DeclaringType.Assembly.GetCustomAttributes(typeof(BenchmarkCategoryAttribute), false));
            return marks.Cast<BenchmarkCategoryAttribute>().SelectMany(a => a.Categories).Distinct().ToArray();
        }

        /// <summary>Every combination of the class's parameter values (one empty set where
        /// it has none), the first member's values varying slowest.</summary>
        static List<KeyValuePair<MemberInfo, object>[]> ParamSets(Type type)
        {
            var sets = new List<KeyValuePair<MemberInfo, object>[]> { new KeyValuePair<MemberInfo, object>[0] };
            var members = type.GetMembers(All).Where(m => m is FieldInfo || m is PropertyInfo).OrderBy(m => m.MetadataToken);
            foreach (MemberInfo member in members)
            {
                object[] values = ParamValues(type, member);
                if (values == null) continue;
                sets = sets.SelectMany(s => values.Select(v => s.Concat(new[] { new KeyValuePair<MemberInfo, object>(member, v) }).ToArray())).ToList();
            }
            return sets;
        }

        /// <summary>The values of <paramref name="member"/>'s [Params], [ParamsSource] or
        /// [ParamsAllValues], each of its type; null where it has none.</summary>
        static object[] ParamValues(Type type, MemberInfo member)
        {
            Type target = member is FieldInfo ? ((FieldInfo)member).FieldType : ((PropertyInfo)member).PropertyType;
            string where = type.Name + "." + member.Name;
            var given = (ParamsAttribute)Attribute.GetCustomAttribute(member, typeof(ParamsAttribute));
            var source = (ParamsSourceAttribute)Attribute.GetCustomAttribute(member, typeof(ParamsSourceAttribute));
            bool all = Attribute.IsDefined(member, typeof(ParamsAllValuesAttribute));
            if (given == null && source == null && !all) return null;
            if (member is PropertyInfo && ((PropertyInfo)member).GetSetMethod(true) == null)
                throw new SuiteUsageException("[Params] " + where + ": a property without a setter");
            if (given != null) return given.Values.Select(v => Values.Converted(v, target, "[Params] " + where)).ToArray();
            if (source != null) return Values.FromSource(source.Type ?? type, source.Name, "[ParamsSource] " + where).Select(v => Values.Converted(v, target, "[ParamsSource] " + where)).ToArray();
            return Values.AllOf(target, "[ParamsAllValues] " + where);
        }

        /// <summary>The argument rows of <paramref name="m"/> (one empty row where it has
        /// none), each as long as its parameters and of their types.</summary>
        static List<object[]> ArgumentRows(MethodInfo m)
        {
            ParameterInfo[] ps = m.GetParameters();
            string where = m.DeclaringType.Name + "." + m.Name;
            var rows = m.GetCustomAttributes(typeof(ArgumentsAttribute), true).Cast<ArgumentsAttribute>()
                .Select(a => a.Values).ToList();
            var source = (ArgumentsSourceAttribute)m.GetCustomAttributes(typeof(ArgumentsSourceAttribute), true).FirstOrDefault();
            if (source != null)
                rows.AddRange(Values.FromSource(source.Type ?? m.DeclaringType, source.Name, "[ArgumentsSource] " + where)
                    .Select(v => ps.Length == 1 && !(v is object[]) ? new[] { v } : v as object[] ?? new[] { v }));
            if (rows.Count == 0 && ps.Length == 0) rows.Add(new object[0]);
            if (rows.Count == 0)
                throw new SuiteUsageException("[Benchmark] " + where + ": takes " + ps.Length + " parameter(s) and has no [Arguments]");
            foreach (object[] row in rows)
                if (row.Length != ps.Length)
                    throw new SuiteUsageException("[Arguments] " + where + ": " + row.Length + " value(s) for " + ps.Length + " parameter(s)");
            return rows.Select(row => row.Select((v, i) => Values.Converted(v, ps[i].ParameterType, "[Arguments] " + where)).ToArray()).ToList();
        }
    }
}
