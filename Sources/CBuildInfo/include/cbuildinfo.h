#ifndef CBUILDINFO_H
#define CBUILDINFO_H
// What the build knows and Swift cannot be told as a constant: the git commit, set by Package.swift.
// Nothing else belongs here.

/// The git commit this binary was built from ("+changes" after it when the tree had uncommitted
/// changes), or "" when the build was not told (AASA_BUILD_COMMIT unset: plain `swift build`).
const char *cbuildinfo_commit(void);

#endif
