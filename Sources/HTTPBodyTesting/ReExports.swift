// `import HTTPBodyTesting` gives a test target the golden files themselves
// (GoldenFile and its kinds), which live in HTTPBodyGoldenFiles so that a
// program that is not a test can use them without linking a test framework.
@_exported public import HTTPBodyGoldenFiles
