// The AsyncHTTPClient transport (issue 5).
import RequestBuilder
