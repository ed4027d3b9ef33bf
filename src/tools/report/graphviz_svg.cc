// DOT to SVG in process, with Graphviz's library (Debian libgraphviz-dev): no `dot` program and
// no temporary files.
#include <graphviz/gvc.h>

#include <memory>
#include <mutex>

#include "relaypass/support/error.h"
#include "report_page.h"

namespace relaypass::tools {

std::string RenderSvg(const std::string& dot) {
  // Graphviz keeps global state: one rendering at a time, and one context for the process.
  // Freeing a context and making another is unsafe: its text layout caches the last font in a
  // static that the freed context owned (a use-after-free that ASan finds on the second page).
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static GVC_t* const context = gvContext();
  if (!context) throw Error("Graphviz: cannot create a context");
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> graph(agmemread(dot.c_str()), agclose);
  if (!graph) throw Error("Graphviz: cannot read the graph");
  if (gvLayout(context, graph.get(), "dot") != 0) throw Error("Graphviz: layout failed");
  char* data = nullptr;
  unsigned int length = 0;
  const int rendered = gvRenderData(context, graph.get(), "svg", &data, &length);
  std::string svg = rendered == 0 && data ? std::string(data, length) : std::string();
  if (data) gvFreeRenderData(data);
  gvFreeLayout(context, graph.get());
  if (rendered != 0) throw Error("Graphviz: SVG rendering failed");
  // Inline in HTML: drop the XML prolog and doctype before <svg.
  const size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

}  // namespace relaypass::tools
