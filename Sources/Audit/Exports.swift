// Findings, severities and rules are defined by the pure AASA module; everything that uses the
// audit sees them without importing AASA itself.
@_exported import AASA
