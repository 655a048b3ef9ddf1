// The test programs exercise internal helpers (status checks, handle wrappers) directly.
using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("Picollo.Tests")]
[assembly: InternalsVisibleTo("Picollo.PerfTests")]
