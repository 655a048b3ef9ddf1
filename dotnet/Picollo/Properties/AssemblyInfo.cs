// The test programs reach the internal layer directly: the raw P/Invoke declarations (Native,
// PerfNative), the SafeHandles, the status checks.
using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("Picollo.Tests")]
[assembly: InternalsVisibleTo("Picollo.PerfTests")]
