// The configs of a run: the one given to the entry point joined, for each class, with those
// its attributes give ([Config(typeof(X))], [AnyCategoriesFilter], any IConfigSource, the
// class's or its assembly's). Their filters keep or drop each benchmark before the command
// line selects; their artifacts path is the runner's --out; the rest is named in the notes,
// with the attributes Picollo ignores.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using Picollo.BenchmarkDotNet.Configs;
using Picollo.BenchmarkDotNet.Running;
using Picollo.Suites;
using BenchmarkAttribute = Picollo.BenchmarkDotNet.Attributes.BenchmarkAttribute;

namespace Picollo.BenchmarkDotNet
{
    internal sealed class Setup
    {
        /// <summary>The benchmarks every filter of their class's config keeps.</summary>
        public List<Definition> Cases;

        /// <summary>The first artifacts path a config sets (null: none).</summary>
        public string ArtifactsPath;

        /// <summary>What the configs and attributes hold that Picollo ignores.</summary>
        public readonly Notes Notes = new Notes();

        /// <summary>The setup of <paramref name="cases"/> under <paramref name="global"/>
        /// (null: the default config); SuiteUsageException for a [Config] that is not a
        /// config, or a filter that throws.</summary>
        public static Setup Of(List<Definition> cases, IConfig global)
        {
            var setup = new Setup();
            var configs = new Dictionary<Type, ManualConfig>();
            foreach (Type type in cases.Select(c => c.Type).Distinct())
            {
                ManualConfig config = configs[type] = ConfigOf(type, global ?? DefaultConfig.Instance);
                setup.Notes.Add(config.Ignored);
                setup.Notes.Add(Options(config.Options));
                setup.ArtifactsPath = setup.ArtifactsPath ?? config.ArtifactsPath;
                AttributesOf(type).ForEach(setup.Notes.Add);
            }
            setup.Cases = cases.Where(c => Kept(configs[c.Type], c)).ToList();
            return setup;
        }

        static ManualConfig ConfigOf(Type type, IConfig global)
        {
            ManualConfig config = ManualConfig.Create(global);
            var sources = type.GetCustomAttributes(true).Concat(type.Assembly.GetCustomAttributes(false)).OfType<IConfigSource>();
            foreach (IConfigSource source in sources)
            {
                IConfig local;
                try { local = source.Config; }
                catch (Exception e)
                {
                    Exception thrown = (e as TargetInvocationException)?.InnerException ?? e;
                    throw new SuiteUsageException("[" + source.GetType().Name.Replace("Attribute", "") + "] " + Names.TypeName(type) + ": " + thrown.Message);
                }
                config = ManualConfig.Union(config, local);
            }
            return config;
        }

        static IEnumerable<KeyValuePair<Part, string>> Options(ConfigOptions options)
        {
            return Enum.GetValues(typeof(ConfigOptions)).Cast<ConfigOptions>()
                .Where(o => o != ConfigOptions.Default && (options & o) == o)
                .Select(o => new KeyValuePair<Part, string>(Part.Option, "ConfigOptions." + o));
        }

        /// <summary>The attributes of <paramref name="type"/>, its assembly and its benchmark methods.</summary>
        static List<Attribute> AttributesOf(Type type)
        {
            var methods = type.GetMethods(Picollo.BenchmarkDotNet.Cases.All).Where(m => m.IsDefined(typeof(BenchmarkAttribute), true));
            return type.GetCustomAttributes(true).Concat(type.Assembly.GetCustomAttributes(false))
                .Concat(methods.SelectMany(m => m.GetCustomAttributes(true))).OfType<Attribute>().ToList();
        }

        static bool Kept(ManualConfig config, Definition c)
        {
            if (config.Filters.Count == 0) return true;
            var seen = new BenchmarkCase(c);
            try { return config.Filters.All(f => f.Predicate(seen)); }
            catch (Exception e)
            {
                throw new SuiteUsageException("a config's filter threw on " + c.FullName + ": " + e.GetType().Name + ": " + e.Message);
            }
        }
    }
}
