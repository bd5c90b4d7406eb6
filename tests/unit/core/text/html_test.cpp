// HTML escaping of text a user chose: markup stays text, quotes cannot close an attribute.
#include "loupe/text/html.hpp"

#include <doctest/doctest.h>

TEST_CASE("html_escape: markup in user content stays text") {
    CHECK(loupe::html_escape("<script>alert('x')</script> & \"q\"") ==
          "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
    CHECK(loupe::html_escape("plain") == "plain");
    CHECK(loupe::html_escape("") == "");
}
