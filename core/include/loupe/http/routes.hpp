#pragma once
// Route registration. Patterns are literal segments and `{name}` captures, e.g.
// "/projects/{owner}/{project}/builds/{buildNumber}", and may end with a `{name...}` capture of
// the rest of the path ("/d/{slug}/{path...}": zero or more segments, each percent-decoded,
// joined with '/'). Every route answers both at "/..." and "/v2/...", except routes of a virtual
// host (RouteOptions::host_suffix). Registration is allowed only during install().
//
// Every route declares what its caller must be (AuthRequirement: which token) and which
// object's permission guards it (RouteAccess, route_access.hpp); a route without a RouteAccess
// is refused at registration.
//
// A request runs in this order: the core authenticates the caller as the AuthRequirement says
// (401 before a byte of the body is read), reads the JSON body (413, 400), then the route runs
// in two steps:
//   prepare(request)  -> validates path, query and body (throw HttpError 400) and returns
//   handler(request)  -> runs after the core enforced the route's RouteAccess (401/404/403,
//                        so a 400 still wins over a refusal of a signed-in caller, as in Argos).
// Routes without validation use the single-function overload.

#include <cstddef>
#include <functional>
#include <string>

#include "loupe/auth/auth_requirement.hpp"
#include "loupe/auth/route_access.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/method.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"

namespace loupe {

using Handler = std::function<Response(Request&)>;
using Prepare = std::function<Handler(Request&)>;

enum class BodyMode {
    json,    ///< body read whole, up to http.max_json_bytes (413 above)
    stream,  ///< the handler streams it with Request::read (uploads)
    /// `application/x-www-form-urlencoded` (415 otherwise), read whole up to the JSON limit;
    /// the handler parses it with parse_form_body (loupe/http/form_body.hpp)
    form,
};

struct RouteOptions {
    BodyMode body = BodyMode::json;
    /// Largest JSON body of this route (413 above); 0 = http.max_json_bytes.
    std::size_t max_json_bytes = 0;
    /// When set (e.g. "deploy.example.com"), the route answers only requests whose Host header
    /// names a subdomain of it ("site.deploy.example.com"), with the path as sent (no "/v2"
    /// stripping), and such requests reach no other route.
    std::string host_suffix = {};
    /// A page of the browser front end (an HTML document for any path of its shape, such as
    /// "/{account}"): it answers only requests that ask for HTML (`Accept: text/html`) and are
    /// not under "/v2". An API client, or any request that does not ask for HTML, gets the JSON
    /// 404 of an unknown path instead of the page.
    bool page = false;
};

struct Route {
    Method method = Method::get;
    std::string pattern;
    AuthRequirement auth = AuthRequirement::none;
    RouteAccess access;
    Prepare prepare;
    RouteOptions options;
};

class LOUPE_API Routes {
public:
    virtual ~Routes();
    virtual void add(Route route) = 0;

    /// A route with no validation step.
    void add(Method method, std::string pattern, AuthRequirement auth, RouteAccess access,
             Handler handler, RouteOptions options = {}) {
        add(Route{method, std::move(pattern), auth, std::move(access),
                  [handler = std::move(handler)](Request&) { return handler; }, options});
    }

    /// Two steps: `parse(Request&) -> Input` validates (400s) before authentication;
    /// `handle(Request&, Input&) -> Response` runs after it.
    template <class Parse, class Handle>
    void add_validated(Method method, std::string pattern, AuthRequirement auth, RouteAccess access,
                       Parse parse, Handle handle, RouteOptions options = {}) {
        add(Route{method, std::move(pattern), auth, std::move(access),
                  [parse = std::move(parse), handle = std::move(handle)](Request& request) {
                      auto input = parse(request);
                      return Handler([handle, input = std::move(input)](Request& r) mutable {
                          return handle(r, input);
                      });
                  },
                  options});
    }
};

}  // namespace loupe
