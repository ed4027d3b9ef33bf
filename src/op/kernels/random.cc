// The random.* kernels: TVM v0.13's splittable Threefry generator (python/tvm/topi/random/
// kernel.py: Threefry-4x64 with 20 rounds over a 10-word state: key 0-3, path 4-5, counter 6-7,
// position of the path's next bit 8-9) and the uniform / normal draws built on it. The same
// arithmetic as TVM's, so a seed gives TVM's numbers.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

using Word = uint64_t;
using State = std::array<Word, 10>;

constexpr int kRotations[8][2] = {{14, 16}, {52, 57}, {23, 40}, {5, 37},
                                  {25, 33}, {46, 12}, {58, 22}, {32, 32}};
constexpr int kPermutation[4] = {0, 3, 2, 1};

Word RotateLeft(Word b, int r) {
  return (b << r) | (b >> (64 - r));
}

// Threefry of key[0..3] at counter[0..3] + l for l < count: 4 words each into out[4 l ...].
// As TVM's _threefry: five key injections (the last one of the Skein paper left out), a
// permutation after each of the 20 rounds, the block index added to every counter word.
void Threefry(const Word* key, const Word* counter, Word* out, Word count) {
  Word full_key[5];
  full_key[4] = 0x1BD11BDAA9FC1A22ULL;
  for (int i = 0; i < 4; ++i) {
    full_key[i] = key[i];
    full_key[4] ^= key[i];
  }
  for (Word l = 0; l < count; ++l) {
    Word x[4];
    for (int j = 0; j < 4; ++j) x[j] = counter[j] + l;
    for (int s = 0; s < 5; ++s) {
      for (int j = 0; j < 4; ++j) {
        x[j] += full_key[(s + j) % 5] + (j == 3 ? static_cast<Word>(s) : 0);
      }
      for (int k = 0; k < 4; ++k) {
        for (int j = 0; j < 2; ++j) {
          const Word a = x[2 * j] + x[2 * j + 1];
          x[2 * j + 1] = a ^ RotateLeft(x[2 * j + 1], kRotations[(s * 4 + k) % 8][j]);
          x[2 * j] = a;
        }
        Word permuted[4];
        for (int j = 0; j < 4; ++j) permuted[j] = x[kPermutation[j]];
        std::memcpy(x, permuted, sizeof x);
      }
    }
    std::memcpy(out + 4 * l, x, sizeof x);
  }
}

// TVM's _shift_right: the 128-bit path position (a, b) moved one bit to the right.
void ShiftRight(Word a, Word b, Word& out_a, Word& out_b) {
  if (a == 1) {
    out_a = 0;
    out_b = 0x8000000000000000ULL;
  } else if (a == 0) {
    out_a = 0;
    out_b = b >> 1;
  } else {
    out_a = a >> 1;
    out_b = 0;
  }
}

State ReadState(const NDArray& key, const char* op) {
  if (key.dtype() != DataType::UInt(64) || key.shape() != Shape{10}) {
    Fail(std::string(op) + ": the key must be a uint64 tensor of shape (10)");
  }
  State s;
  std::memcpy(s.data(), key.data<Word>(), sizeof(Word) * 10);
  return s;
}

NDArray WriteState(const State& s) {
  NDArray out = NDArray::Uninitialized({10}, DataType::UInt(64));
  std::memcpy(out.mutable_data<Word>(), s.data(), sizeof(Word) * 10);
  return out;
}

// TVM's threefry_generate: `len` random words into `out`; returns the next state.
State Generate(const State& gen, Word len, Word* out) {
  State tmp = gen;
  if (!(gen[7] < ~Word{0} - len)) {  // no room left in the counter
    if (gen[8] == 0 && gen[9] == 0) {
      // Out of room in the path too: a new key from the state at an all-ones counter.
      const Word counter[4] = {~Word{0}, ~Word{0}, 0, 0};
      Word key[4];
      Threefry(gen.data(), counter, key, 1);
      tmp = {key[0], key[1], key[2], key[3], 0, 0, 0, 0, Word{1} << 63, 0};
    } else {
      tmp[4] = gen[4] | gen[8];  // a one added to the path
      tmp[5] = gen[5] | gen[9];
      tmp[6] = 0;
      tmp[7] = 0;
      ShiftRight(gen[8], gen[9], tmp[8], tmp[9]);
    }
  }
  if (len >= 4) Threefry(tmp.data(), tmp.data() + 4, out, len / 4);
  if (len % 4 != 0) {
    tmp[7] += len / 4 * 4;
    Word remaining[4];
    Threefry(tmp.data(), tmp.data() + 4, remaining, 1);
    for (Word i = 0; i < len % 4; ++i) out[len / 4 * 4 + i] = remaining[i];
  }
  State next = tmp;
  next[6] = 0;
  next[7] = tmp[7] + (len % 4 != 0 ? 4 : len);
  return next;
}

// uniform's draws in [low, high) from random words, as TVM's topi.random.uniform: the word's top
// fraction bits (of its low 32 bits for float32) as the mantissa of a number in [1, 2), minus 1.
template <typename T>
void UniformFromBits(const Word* bits, int64_t n, T low, T high, T* out) {
  for (int64_t i = 0; i < n; ++i) {
    T standard;
    if constexpr (sizeof(T) == 4) {
      const uint32_t word = static_cast<uint32_t>(bits[i]);
      const uint32_t mantissa = (word >> 9) | (uint32_t{127} << 23);
      std::memcpy(&standard, &mantissa, sizeof standard);
    } else {
      const uint64_t mantissa = (bits[i] >> 12) | (uint64_t{1023} << 52);
      std::memcpy(&standard, &mantissa, sizeof standard);
    }
    standard -= T(1);
    out[i] = standard * (high - low) + low;
  }
}

template <typename T>
T ScalarOf(const NDArray& a, const char* op, const char* what) {
  if (a.size() != 1) Fail(std::string(op) + ": " + what + " must be a scalar");
  return static_cast<T>(a.GetAsDouble(0));
}

}  // namespace

Arrays ThreefryGenerate(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 1, "random.threefry_generate");
  const Shape shape = AttrsOf(attrs, "random.threefry_generate").get_ints("out_shape");
  const State gen = ReadState(in[0], "random.threefry_generate");
  NDArray out = NDArray::Uninitialized(shape, DataType::UInt(64));
  const State next = Generate(gen, static_cast<Word>(out.size()), out.mutable_data<Word>());
  return {WriteState(next), out};
}

Arrays ThreefrySplit(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 1, "random.threefry_split");
  const State gen = ReadState(in[0], "random.threefry_split");
  State left = gen, right = gen;
  if (gen[8] == 0 && gen[9] == 0) {  // no room to extend the path: a new key
    Word key[4];
    Threefry(gen.data(), gen.data() + 4, key, 1);
    left = {key[0], key[1], key[2], key[3], 0, 0, 0, 0, Word{1} << 62, 0};
    right = {key[0], key[1], key[2], key[3], Word{1} << 63, 0, 0, 0, Word{1} << 62, 0};
  } else {
    ShiftRight(gen[8], gen[9], left[8], left[9]);
    right[4] = gen[4] | gen[8];  // a one added to the path
    right[5] = gen[5] | gen[9];
    ShiftRight(gen[8], gen[9], right[8], right[9]);
  }
  return {WriteState(left), WriteState(right)};
}

// uniform(key, low, high) and normal(key, mean, scale): the next key and the draws.
namespace {

template <typename T>
Arrays Draw(const Arrays& in, const ir::Attrs& attrs, const char* op, bool normal) {
  CheckInputs(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const Shape shape = a.get_ints("out_shape");
  const State gen = ReadState(in[0], op);
  const DataType dtype = in[1].dtype();
  NDArray out = NDArray::Uninitialized(shape, dtype);
  const int64_t n = out.size();
  // normal draws two uniform values per result (TVM's Box-Muller: shape [2] + out_shape).
  std::vector<Word> bits(static_cast<size_t>(normal ? 2 * n : n));
  const State next = Generate(gen, bits.size(), bits.data());
  T* y = out.mutable_data<T>();
  if (!normal) {
    UniformFromBits<T>(bits.data(), n, ScalarOf<T>(in[1], op, "low"),
                       ScalarOf<T>(in[2], op, "high"), y);
  } else {
    std::vector<T> u(bits.size());
    UniformFromBits<T>(bits.data(), static_cast<int64_t>(u.size()), T(0), T(1), u.data());
    const T mean = ScalarOf<T>(in[1], op, "mean"), scale = ScalarOf<T>(in[2], op, "scale");
    const T two_pi = static_cast<T>(2.0 * M_PI);
    for (int64_t i = 0; i < n; ++i) {
      const T radius = std::sqrt(T(-2) * std::log(T(1) - u[static_cast<size_t>(i)]));
      y[i] = radius * std::sin(two_pi * u[static_cast<size_t>(n + i)]) * scale + mean;
    }
  }
  return {WriteState(next), out};
}

Arrays DrawAny(const Arrays& in, const ir::Attrs& attrs, const char* op, bool normal) {
  if (in.size() > 1 && in[1].dtype() == DataType::Float(64)) {
    return Draw<double>(in, attrs, op, normal);
  }
  if (in.size() > 1 && in[1].dtype() == DataType::Float(32)) {
    return Draw<float>(in, attrs, op, normal);
  }
  Fail(std::string(op) + ": only float32 and float64 draws are supported (as in TVM)");
}

}  // namespace

// multinomial(key, probs): per row of probs (its last axis; negative values count as 0), the
// index of each of num_samples uniform draws, as TVM's topi: the first index whose cumulative
// probability exceeds the draw (the argmin of cumulative - draw over the positive differences).
Arrays Multinomial(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "random.multinomial";
  CheckInputs(in, 2, op);
  const int64_t samples = AttrsOf(attrs, op).get_int("num_samples");
  const State gen = ReadState(in[0], op);
  const NDArray probs = CastArray(in[1], DataType::Float32());
  const Shape& ps = probs.shape();
  if (ps.empty() || ps.back() == 0) Fail(std::string(op) + ": probs needs a non-empty last axis");
  const int64_t classes = ps.back();
  const int64_t rows = probs.size() / classes;
  Shape out_shape(ps.begin(), ps.end() - 1);
  out_shape.push_back(samples);
  std::vector<Word> bits(static_cast<size_t>(rows * samples));
  const State next = Generate(gen, bits.size(), bits.data());
  std::vector<float> u(bits.size());
  UniformFromBits<float>(bits.data(), static_cast<int64_t>(u.size()), 0.f, 1.f, u.data());
  NDArray out = NDArray::Uninitialized(out_shape, DataType::Int32());
  const float* p = probs.data<float>();
  int32_t* y = out.mutable_data<int32_t>();
  std::vector<float> cumulative(static_cast<size_t>(classes));
  for (int64_t r = 0; r < rows; ++r) {
    float total = 0;
    for (int64_t c = 0; c < classes; ++c) total += std::max(p[r * classes + c], 0.f);
    float running = 0;
    for (int64_t c = 0; c < classes; ++c) {
      running += std::max(p[r * classes + c], 0.f) / total;
      cumulative[static_cast<size_t>(c)] = running;
    }
    for (int64_t s = 0; s < samples; ++s) {
      const float draw = u[static_cast<size_t>(r * samples + s)];
      int32_t best = 0;
      float best_value = 0;
      for (int64_t c = 0; c < classes; ++c) {
        const float diff = cumulative[static_cast<size_t>(c)] - draw;
        const float value = diff > 0 ? diff : 1.f;
        if (c == 0 || value < best_value) {
          best = static_cast<int32_t>(c);
          best_value = value;
        }
      }
      y[r * samples + s] = best;
    }
  }
  return {WriteState(next), out};
}

Arrays Uniform(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  return DrawAny(in, attrs, "random.uniform", false);
}

Arrays Normal(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  return DrawAny(in, attrs, "random.normal", true);
}

}  // namespace relaypass::op::kernels
