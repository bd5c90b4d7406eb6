import { render } from "preact";
import { App } from "./app";
import { prefetchBuild } from "./build/use-build-data";
import { parseRoute } from "./router";
import "./styles.css";

const route = parseRoute(location);
if (route.page === "build") prefetchBuild(route.account, route.project, route.number);

render(<App />, document.getElementById("app")!);
