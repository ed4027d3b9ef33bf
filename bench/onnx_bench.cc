// ONNX import speed (issue: "resnet-50's ONNX file imports in at most 3x the time it takes to read
// the file's bytes from a warm cache"). The model is bench/onnx_models.h's ResNet-50 (torchvision's
// exported graph, 102 MB of float weights as raw data), written once to --model-dir. Measured side
// by side in one run:
//   onnx/read_bytes   read(2) of the file into mapped memory (warm page cache): the floor
//   onnx/read_bytes_fresh  the same into a fresh allocation (page faults included)
//   onnx/parse_proto  onnx::ModelProto::ParseFromString on those bytes (ONNX's protobuf classes)
//   onnx/import       frontend::FromOnnxFile, freeze_params=true: read, checker, convert, type
//   onnx/import_file_params  the same with freeze_params=false (weights returned as params)
// Run: build/bench/onnx_bench --model-dir=build (make bench does).
#include <benchmark/benchmark.h>
#include <onnx/onnx_pb.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "onnx_models.h"
#include "relaypass/frontend/onnx.h"

namespace {

std::string g_model_dir = ".";

// The model file `name` (resnet-18, resnet-50, mobilenet-v2) in --model-dir, written once.
std::string ModelPath(const std::string& name) {
  const std::string path = g_model_dir + "/" + name + ".onnx";
  if (!std::filesystem::exists(path)) {
    relaypass::bench::OnnxModelBuilder builder(static_cast<uint32_t>(name.size()));
    const onnx::ModelProto model = name == "mobilenet-v2" ? builder.BuildMobileNetV2()
                                   : name == "resnet-18"  ? builder.Build(18)
                                                          : builder.Build(50);
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary);
      if (!model.SerializeToOstream(&out)) throw std::runtime_error("cannot write " + tmp);
    }
    std::filesystem::rename(tmp, path);
  }
  return path;
}

// The file's bytes with read(2) into `buffer` (at least the file's size).
size_t ReadInto(const std::string& path, char* buffer, size_t size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path);
  size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd, buffer + done, size - done);
    if (got <= 0) break;
    done += static_cast<size_t>(got);
  }
  ::close(fd);
  return done;
}

std::string ReadBytes(const std::string& path) {
  std::string bytes(std::filesystem::file_size(path), '\0');
  bytes.resize(ReadInto(path, bytes.data(), bytes.size()));
  return bytes;
}

// The floor: read(2) of the whole file from the warm page cache into memory that is already
// mapped (`reuse`), or into a fresh allocation as any reader must (page faults included).
void BM_ReadBytes(benchmark::State& state, const std::string& net, bool reuse) {
  const std::string path = ModelPath(net);
  const size_t size = std::filesystem::file_size(path);
  std::unique_ptr<char[]> kept(new char[size]);
  ReadInto(path, kept.get(), size);  // warm the page cache and the kept buffer
  for (auto _ : state) {
    if (reuse) {
      benchmark::DoNotOptimize(ReadInto(path, kept.get(), size));
    } else {
      std::unique_ptr<char[]> fresh(new char[size]);
      benchmark::DoNotOptimize(ReadInto(path, fresh.get(), size));
    }
  }
  state.counters["bytes"] = static_cast<double>(size);
}

void BM_ParseProto(benchmark::State& state, const std::string& net) {
  const std::string bytes = ReadBytes(ModelPath(net));
  for (auto _ : state) {
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes)) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(model);
  }
}

void BM_Import(benchmark::State& state, const std::string& net, bool freeze_params) {
  const std::string path = ModelPath(net);
  relaypass::frontend::OnnxOptions options;
  options.freeze_params = freeze_params;
  ReadBytes(path);
  for (auto _ : state) {
    relaypass::frontend::OnnxModel model = relaypass::frontend::FromOnnxFile(path, options);
    benchmark::DoNotOptimize(model);
  }
}

void Register() {
  for (const char* name : {"resnet-18", "resnet-50", "mobilenet-v2"}) {
    const std::string net = name;
    benchmark::RegisterBenchmark(("onnx/read_bytes/" + net).c_str(), BM_ReadBytes, net, true)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("onnx/read_bytes_fresh/" + net).c_str(), BM_ReadBytes, net, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("onnx/parse_proto/" + net).c_str(), BM_ParseProto, net)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("onnx/import/" + net).c_str(), BM_Import, net, true)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("onnx/import_unfrozen/" + net).c_str(), BM_Import, net, false)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--model-dir=", 12) == 0) {
      g_model_dir = argv[i] + 12;
    } else {
      std::cerr << "onnx_bench: unknown argument '" << argv[i] << "'\n";
      return 1;
    }
  }
  Register();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
