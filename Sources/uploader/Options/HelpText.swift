/// The part of `--help` after the options, and the man page's sections
/// beyond them: the item syntax, object stores, the kinds of upload and the
/// options each refuses (``OptionRule/table``), the response, the exit
/// statuses (``ExitStatus``) and examples.
enum HelpText {
    /// The whole of it, as `--help` ends.
    static var discussion: String {
        [items, objectStores, kinds, response, "EXIT STATUS:\n" + ExitStatus.helpLines, examples].joined(separator: "\n\n")
    }

    /// The request items and how the body is chosen.
    static let items = """
        REQUEST ITEMS (after the URL):
          name=value               a text field (JSON string with --json)
          name:=json               a raw JSON value, sent exactly as written
          name@path                a file part, streamed; type sniffed from content
          'name@path;type=MIME'    a file part with an explicit type
          'name@path;filename=N'   a file part sent under another filename
          name@-                   a file part read from standard input
          Header:value             a request header ('Header:' removes a default one)
          name==value              a URL query parameter
          name=@file, name:=@file  a text field or raw JSON value read from a file
          Header:@file             a header value read from a file, trimmed
          name==@file              a query value read from a file, trimmed
          name@dir -r              one part per file under dir (filename dir/sub/f)
          A backslash makes a separator part of a name: 'a\\=b=c' is the field 'a=b'.
          A value that starts with a literal @ is written \\@: 'note=\\@home'.

        The method defaults to POST when there is a body, GET otherwise. The URL
        may omit http:// ('localhost:8080/up', or ':8080/up' for localhost).
        The body is multipart/form-data when any file or -F part is given, JSON
        for fields alone; --form, --json and --multipart choose explicitly.
        User and password in the URL (user:pass@host) are sent as Basic
        credentials. -o FILE is written only once the response head arrives.
        Redirects are followed with -L only: 303, and 301/302 after POST, as GET
        without the body; 307/308 send the same body again (not one read from
        standard input); Authorization and Cookie do not go to another origin.
        """

    /// `s3://` and `--presigned-post` in a paragraph.
    static let objectStores = """
        OBJECT STORES (docs/s3.md): 'uploader s3://BUCKET/KEY FILE' uploads one
        file with AWS SigV4 (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, optional
        AWS_SESSION_TOKEN, AWS_REGION), as parallel parts from
        --multipart-threshold (8M); a rerun of the same command resumes it.
        --endpoint-url names an S3-compatible store. '--presigned-post FORM.json
        FILE' fills a presigned POST form instead, without credentials. With
        -r, uploader s3://BUCKET/PREFIX/ DIR uploads every file under DIR to
        PREFIX/relative/path, --concurrency files at once, with a summary.
        """

    /// The kinds of upload and the options each refuses.
    static let kinds = """
        KINDS OF UPLOAD: --resumable, --tus, s3:// (with -r, a directory) and
        --presigned-post each send in their own way, and refuse the options that
        would do nothing there (exit 2, naming the option and the kind):
        \(OptionRule.helpNotes)
        """

    /// Where the response goes.
    static let response = """
        RESPONSE: the body goes to standard output as sent; on a terminal a
        JSON body is indented and coloured (--pretty chooses).
        """

    /// Commands to copy.
    static let examples = """
        EXAMPLES (quote every item that holds a ';', which ends a shell command):
          uploader --dry-run localhost:8080/upload title=Hello file@Samples/hello.txt
          uploader PUT example.com/photos/1 photo@cat.jpg caption='On the sofa' \\
              --progress
          uploader --json example.com/api tags:='["a","b"]' Authorization:'Bearer T'
          uploader localhost:8080/up -F 'doc=@report.pdf;filename=Q3.pdf' --retry 3
          tar c dir | uploader localhost:8080/up 'archive@-;type=application/x-tar' \\
              --gzip
          uploader localhost:8080/raw --data @dump.bin \\
              -H 'Content-Type: application/octet-stream'

        """
}
