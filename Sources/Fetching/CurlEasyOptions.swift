import CCurl

/// Sets the options of one easy handle, every result checked: an option libcurl refuses throws a
/// `CurlOptionError` naming it, instead of leaving the transfer to run without it.
struct CurlEasyOptions {
    let easy: UnsafeMutableRawPointer

    func set(_ option: CURLoption, _ value: Int) throws(CurlOptionError) {
        try check(option, ccurl_easy_setopt_long(easy, option, value))
    }

    func set(_ option: CURLoption, _ value: String) throws(CurlOptionError) {
        try check(option, ccurl_easy_setopt_string(easy, option, value))
    }

    /// Sets a string option back to NULL (libcurl's default, or "none" where the option says so).
    func clear(_ option: CURLoption) throws(CurlOptionError) {
        try check(option, ccurl_easy_setopt_string(easy, option, nil))
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlOptionError) {
        try check(option, ccurl_easy_setopt_ptr(easy, option, pointer))
    }

    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) throws(CurlOptionError) {
        try check(option, ccurl_easy_setopt_slist(easy, option, list))
    }

    /// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
    func set(_ option: CURLoption, write callback: curl_write_callback) throws(CurlOptionError) {
        try check(option, ccurl_easy_setopt_write_function(easy, option, callback))
    }

    func setOpenSocket(_ callback: curl_opensocket_callback) throws(CurlOptionError) {
        try check(CURLOPT_OPENSOCKETFUNCTION, ccurl_easy_setopt_opensocket_function(easy, callback))
    }

    func setPrereq(_ callback: curl_prereq_callback) throws(CurlOptionError) {
        try check(CURLOPT_PREREQFUNCTION, ccurl_easy_setopt_prereq_function(easy, callback))
    }

    private func check(_ option: CURLoption, _ code: CURLcode) throws(CurlOptionError) {
        guard code == CURLE_OK else { throw CurlOptionError(option: option, code: code) }
    }
}
