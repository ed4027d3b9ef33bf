#include "relaypass/support/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace relaypass::support {

namespace {

// RELAYPASS_NUM_THREADS, else every core (as TVM's runtime and ONNX Runtime default, and as
// OpenBLAS did for the evaluator's products before the evaluator split them itself).
int ThreadsFromEnvironment() {
  const char* text = std::getenv("RELAYPASS_NUM_THREADS");
  if (text == nullptr) {
    return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 256);
  }
  const int n = std::atoi(text);
  return std::clamp(n, 1, 256);
}

// Workers wait for a job (a range cut into chunks); the submitting thread takes chunks too.
// One job at a time: `busy_` is held by the submitter for the job's whole life.
//
// A thread woken from a condition variable starts some tens of microseconds later, longer than
// many of the evaluator's jobs (a MobileNet layer takes 50 to 300 us, and an inference is about a
// hundred jobs): the submitter would do a job's chunks alone before the worker arrived. So
// workers spin for kSpin after a job before they sleep, watching for the next one, and the
// submitter spins for the workers' last chunks before it sleeps. The atomics read while spinning
// are hints only; every decision is taken again under `mutex_`.
constexpr std::chrono::microseconds kSpin{200};

// Waits until done() or kSpin has passed; true if done().
template <typename Done>
bool SpinUntil(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if ((i & 63) == 63 && std::chrono::steady_clock::now() >= deadline) return done();
  }
}
class Pool {
 public:
  static Pool& Get() {
    static Pool* pool = new Pool();  // never destroyed: workers may outlive static destructors
    return *pool;
  }

  void SetThreads(int n) {
    std::lock_guard<std::mutex> job(busy_);
    threads_.store(std::max(1, n));
  }
  int threads() const { return threads_.load(); }

  void Run(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
    grain = std::max<int64_t>(grain, 1);
    const int want = threads_.load();
    if (want <= 1 || n <= grain) {
      body(0, n);
      return;
    }
    // Up to four chunks a thread, none under `grain`, a multiple of the thread count when there
    // are more chunks than threads, of sizes that differ by one at most: taken in turn, they share
    // out evenly (50 items as 8 chunks of ceil(50 / 8) = 7 gave two threads 28 and 22).
    int64_t chunks = std::min<int64_t>(n / grain, 4 * want);
    if (chunks > want) chunks = chunks / want * want;
    if (chunks <= 1) {
      body(0, n);
      return;
    }
    std::unique_lock<std::mutex> job(busy_, std::try_to_lock);
    if (!job.owns_lock()) {  // another caller's job is running: do this one alone
      body(0, n);
      return;
    }
    StartWorkers(want - 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      size_ = n;
      chunks_ = chunks;
      next_.store(0);
      pending_ = chunks;
      error_ = nullptr;
      ++generation_;
      generation_seen_ = generation_;
      published_.store(generation_, std::memory_order_release);
    }
    wake_.notify_all();
    Work();
    SpinUntil([&] { return finished_.load(std::memory_order_acquire) == generation_seen_; });
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0 && active_ == 0; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  Pool() : threads_(ThreadsFromEnvironment()) {}

  void StartWorkers(int count) {
    while (static_cast<int>(workers_.size()) < count) {
      workers_.emplace_back([this] { WorkerLoop(); });
      workers_.back().detach();
    }
  }

  void WorkerLoop() {
    uint64_t seen = 0;
    for (;;) {
      SpinUntil([&] { return published_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen && body_ != nullptr; });
        seen = generation_;
        ++active_;
      }
      Work();
      std::lock_guard<std::mutex> lock(mutex_);
      if (--active_ == 0 && pending_ == 0) Finish();
    }
  }

  // Under mutex_: the job's chunks are all done and no worker is inside it.
  void Finish() {
    finished_.store(generation_, std::memory_order_release);
    done_.notify_all();
  }

  // Chunk i is [ChunkStart(i), ChunkStart(i + 1)).
  int64_t ChunkStart(int64_t i) const {
    // size_ * i in 128 bits: size_ may be any int64_t.
    return static_cast<int64_t>(static_cast<__int128>(size_) * i / chunks_);
  }

  // Takes chunks until none is left.
  void Work() {
    for (;;) {
      const int64_t i = next_.fetch_add(1);
      if (i >= chunks_) return;
      const int64_t begin = ChunkStart(i), end = ChunkStart(i + 1);
      try {
        (*body_)(begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0 && active_ == 0) Finish();
    }
  }

  std::atomic<int> threads_;
  std::mutex busy_;  // held by the thread whose job the pool runs
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t, int64_t)>* body_ = nullptr;
  int64_t size_ = 0, chunks_ = 1, pending_ = 0;
  int active_ = 0;
  uint64_t generation_ = 0;
  uint64_t generation_seen_ = 0;  // the submitter's copy of its job's generation
  // generation_ as published to spinning workers, and the last generation finished.
  std::atomic<uint64_t> published_{0}, finished_{0};
  std::atomic<int64_t> next_{0};
  std::exception_ptr error_;
};

}  // namespace

void SetNumThreads(int n) {
  Pool::Get().SetThreads(n);
}
int NumThreads() {
  return Pool::Get().threads();
}

void ParallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  Pool::Get().Run(n, grain, body);
}

}  // namespace relaypass::support
