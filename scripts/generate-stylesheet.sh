#!/bin/sh
# Writes Sources/Reporting/HTML/ReportStylesheet.swift from Sources/Reporting/HTML/report.css, the
# HTML report's stylesheet, so the installed binary carries it (`make install` copies the binary
# alone: a resource bundle beside it would be lost). `make stylesheet` runs it; a test
# (ReportStylesheetTests) fails when the two files differ.
set -eu
cd "$(dirname "$0")/.."
css=Sources/Reporting/HTML/report.css
out=Sources/Reporting/HTML/ReportStylesheet.swift
if grep -q '"""#' "$css"; then
    echo "generate-stylesheet: $css contains \"\"\"#, which would end the Swift string early" >&2
    exit 1
fi
{
    printf '%s\n' '// Generated from report.css by scripts/generate-stylesheet.sh (`make stylesheet`). Do not edit:'
    printf '%s\n' '// edit report.css and run `make stylesheet`; ReportStylesheetTests fails while the two differ.'
    printf '\n'
    printf '%s\n' '/// The HTML report'"'"'s only styling (light and dark colours, narrow screens, print): report.css.'
    printf '%s\n' 'enum ReportStylesheet {'
    printf '%s\n' '    /// The text of report.css.'
    printf '%s\n' '    static let css = #"""'
    cat "$css"
    printf '\n%s\n' '"""#'
    printf '%s\n' '}'
} > "$out.new"
mv "$out.new" "$out"
