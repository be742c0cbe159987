#if canImport(Glibc)
import Glibc
#endif

// libzip converts every member's DOS time with mktime(), and glibc's mktime, with TZ unset,
// looks at /etc/localtime again on each call: a stat per member, three quarters of reading an
// .ipa of 100,000 members. TZ naming that same file is the same time zone, and glibc then reads it
// once. Set first, before any thread could read the environment.
if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }
Subcommands.main(Array(CommandLine.arguments.dropFirst()))
