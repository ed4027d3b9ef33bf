// Running the built examples and reading expected outputs, for the conformance tests.
#pragma once

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace relaypass::conformance {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The stdout of build/examples/<name> (stderr discarded); its exit status goes to *status.
inline std::string RunExample(const std::string& name, int* status) {
  std::string command = std::string(RELAYPASS_BINARY_DIR) + "/examples/" + name + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  if (!pipe) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe.get())) > 0) out.append(buf, n);
  *status = pclose(pipe.release());
  return out;
}

}  // namespace relaypass::conformance
