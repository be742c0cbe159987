// Findings, severities and rules are defined by the pure AASA module; everything that uses the
// audit sees them without importing AASA itself.
@_exported import AASA
// The CMS unwrap that runs before the core (`SignedFile.open`), for the same reason.
@_exported import SignedFiles
