// The artifact container (include/relaypass/runtime/artifact.h, docs/artifact.md). Expected bytes
// are written out by hand from the layout documented there.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "../../fuzz/runtime_files_property.h"
#include "relaypass/runtime/artifact.h"
#include "relaypass/support/error.h"

namespace relaypass::runtime {
namespace {

namespace fs = std::filesystem;

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out += static_cast<char>(b);
  return out;
}

std::string ParseError(std::string_view bytes) {
  try {
    ParseArtifact(bytes, "lib.rpa");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// {"a": "xy", "params": ""} in the documented layout.
const std::string kSmallArtifact =
    std::string("RPARTIFACT") + Bytes({
                                    1,   0,   0,   0,                    // version 1
                                    2,   0,   0,   0,   0,   0,   0, 0,  // 2 sections
                                    1,   0,   0,   0,   0,   0,   0, 0,  // "a"
                                    'a',                                 //
                                    2,   0,   0,   0,   0,   0,   0, 0,  // 2 bytes
                                    'x', 'y',                            //
                                    6,   0,   0,   0,   0,   0,   0, 0,  // "params"
                                    'p', 'a', 'r', 'a', 'm', 's',        //
                                    0,   0,   0,   0,   0,   0,   0, 0,  // 0 bytes
                                });

Artifact SmallArtifact() {
  return Artifact{{{"a", "xy"}, {"params", ""}}};
}

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "relaypass_artifact_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(ArtifactTest, SmallArtifactBytesExactly) {
  EXPECT_EQ(kSmallArtifact.size(), 63u);  // 22 (magic, version, count) + 19 ("a") + 22 ("params")
  EXPECT_EQ(SerializeArtifact(SmallArtifact()), kSmallArtifact);
  EXPECT_EQ(ParseArtifact(kSmallArtifact, "small").sections, SmallArtifact().sections);
}

TEST(ArtifactTest, RoundTripsBinarySections) {
  Artifact artifact;
  artifact.sections["module"] = "#[version = \"0.0.5\"]\ndef @main() { 0 }\n";
  artifact.sections["params"] = std::string("\0\xff\x01 binary", 10);
  artifact.sections["graph_json"] = "{}";
  artifact.sections["executor_config"] = "";
  artifact.sections[std::string("\0name", 5)] = "names are bytes too";
  EXPECT_EQ(ParseArtifact(SerializeArtifact(artifact), "rt").sections, artifact.sections);
  EXPECT_EQ(ParseArtifact(SerializeArtifact(Artifact{}), "empty").sections.size(), 0u);
}

TEST(ArtifactTest, EveryTruncationIsAnError) {
  for (size_t n = 0; n < kSmallArtifact.size(); ++n) {
    const std::string message = ParseError(std::string_view(kSmallArtifact).substr(0, n));
    EXPECT_NE(message.find("lib.rpa: byte "), std::string::npos) << n << ": " << message;
  }
}

TEST(ArtifactTest, DamagedHeader) {
  std::string bytes = kSmallArtifact;
  bytes[2] = 'X';
  EXPECT_EQ(ParseError(bytes),
            "lib.rpa: byte 0: not a relaypass artifact (it does not start with \"RPARTIFACT\")");
  bytes = kSmallArtifact;
  bytes[10] = 2;
  EXPECT_EQ(ParseError(bytes),
            "lib.rpa: byte 10: artifact format version 2 is not supported (this relaypass reads "
            "version 1)");
  bytes = kSmallArtifact;
  std::memset(&bytes[14], 0xFF, 8);
  EXPECT_NE(ParseError(bytes).find("byte 14: section count 18446744073709551615 is more than the "
                                   "41 remaining bytes can hold"),
            std::string::npos)
      << ParseError(bytes);
  EXPECT_EQ(ParseError(kSmallArtifact + "junk"),
            "lib.rpa: byte 63: 4 bytes after the last section");
}

TEST(ArtifactTest, DamagedSections) {
  std::string bytes = kSmallArtifact;
  std::memset(&bytes[22], 0x7F, 8);  // the first name's length
  EXPECT_NE(ParseError(bytes).find("byte 30: truncated: a section name needs"), std::string::npos)
      << ParseError(bytes);
  bytes = kSmallArtifact;
  bytes[31] = 100;  // the first section's length
  EXPECT_EQ(ParseError(bytes),
            "lib.rpa: byte 39: truncated: section 'a' needs 100 bytes, only 24 remain");
  // A second section also named "a".
  bytes =
      kSmallArtifact.substr(0, 41) + Bytes({1, 0, 0, 0, 0, 0, 0, 0, 'a', 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(ParseError(bytes), "lib.rpa: byte 41: duplicate section 'a'");
  bytes = kSmallArtifact;
  bytes[22] = 0;  // an empty first name
  EXPECT_EQ(ParseError(bytes), "lib.rpa: byte 22: a section has an empty name");
  EXPECT_THROW(SerializeArtifact(Artifact{{{"", "x"}}}), Error);
}

TEST(ArtifactTest, EverySingleByteFlipIsAnErrorOrAnArtifact) {
  for (size_t i = 0; i < kSmallArtifact.size(); ++i) {
    std::string bytes = kSmallArtifact;
    bytes[i] = static_cast<char>(bytes[i] ^ 0xA5);
    EXPECT_EQ(fuzz::CheckArtifactFile(bytes), "") << i;
  }
}

TEST(ArtifactTest, FileRoundTripLeavesNoTemporaryFiles) {
  TempDir dir;
  const std::string path = dir / "lib.rpa";
  WriteArtifactFile(path, SmallArtifact());
  EXPECT_EQ(ReadArtifactFile(path).sections, SmallArtifact().sections);
  Artifact bigger{{{"module", std::string(100000, 'm')}}};
  WriteArtifactFile(path, bigger);  // replaces the file
  EXPECT_EQ(ReadArtifactFile(path).sections, bigger.sections);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(ArtifactTest, FileErrorsNameThePath) {
  TempDir dir;
  auto error = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  const std::string missing = dir / "missing.rpa";
  EXPECT_EQ(error([&] { ReadArtifactFile(missing); }),
            "cannot open '" + missing + "': No such file or directory");
  EXPECT_EQ(error([&] { ReadArtifactFile(dir.path().string()); }),
            "cannot read '" + dir.path().string() + "': it is a directory");
  const std::string nested = dir / "no/such/dir/lib.rpa";
  EXPECT_NE(
      error([&] { WriteArtifactFile(nested, SmallArtifact()); }).find("No such file or directory"),
      std::string::npos);
  // Writing over a directory: the rename fails and the temporary file is removed.
  fs::create_directory(dir / "adir");
  fs::create_directory(dir / "adir/inside");
  const std::string message = error([&] { WriteArtifactFile(dir / "adir", SmallArtifact()); });
  EXPECT_NE(message.find(dir / "adir"), std::string::npos) << message;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);

  const std::string path = dir / "lib.rpa";
  WriteArtifactFile(path, SmallArtifact());
  EXPECT_EQ(error([&] { ReadArtifactFile(path, 62); }),
            "'" + path + "' is 63 bytes, over the limit of 62 bytes");
  EXPECT_EQ(ReadArtifactFile(path, 63).sections, SmallArtifact().sections);
  // A file that is not an artifact: the path is the source name.
  std::ofstream(dir / "garbage") << "not an artifact";
  EXPECT_EQ(error([&] { ReadArtifactFile(dir / "garbage"); }),
            dir / "garbage" +
                ": byte 0: not a relaypass artifact (it does not start with "
                "\"RPARTIFACT\")");
}

TEST(ArtifactTest, NewFilesFollowTheUmask) {
  TempDir dir;
  const mode_t old = ::umask(022);
  WriteArtifactFile(dir / "lib.rpa", SmallArtifact());
  ::umask(old);
  struct stat st;
  ASSERT_EQ(::stat((dir / "lib.rpa").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);  // 0666 & ~022, as for any file a program creates
}

}  // namespace
}  // namespace relaypass::runtime
