// DataType::Parse: TVM's String2DLDataType names (expected values from TVM's runtime/data_type.h:
// a name without bits takes the default width, 32, and 16 for bfloat).
#include <gtest/gtest.h>

#include "relaypass/ir/dtype.h"

namespace relaypass::ir {
namespace {

TEST(DataTypeParseTest, NamesWithoutBitsTakeTheDefaultWidth) {
  EXPECT_EQ(DataType::Parse("float"), DataType::Float(32));
  EXPECT_EQ(DataType::Parse("int"), DataType::Int(32));
  EXPECT_EQ(DataType::Parse("uint")->ToString(), "uint32");
  EXPECT_EQ(DataType::Parse("bfloat")->ToString(), "bfloat16");
  EXPECT_EQ(DataType::Parse("floatx4")->ToString(), "float32x4");
}

TEST(DataTypeParseTest, ExplicitWidthsAndBadNames) {
  EXPECT_EQ(DataType::Parse("float16"), DataType::Float(16));
  EXPECT_EQ(DataType::Parse("bool"), DataType::Bool());
  EXPECT_FALSE(DataType::Parse("float0"));
  EXPECT_FALSE(DataType::Parse("floaty"));
  EXPECT_FALSE(DataType::Parse("int128"));
  EXPECT_FALSE(DataType::Parse("double"));
}

}  // namespace
}  // namespace relaypass::ir
