#pragma once
// Threads with a full-size stack for the request pipeline. civetweb's workers have the stack
// size civetweb was compiled with (Debian: USE_STACK_SIZE=102400, 100 KiB), too small for
// handlers that parse, query databases or decode images, and far too small under ASan. Each
// civetweb worker hands its request to this pool and waits, so with as many pool threads as
// workers a job never queues for long.

#include <pthread.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

namespace loupe {

class HandlerPool {
public:
    /// Starts `threads` threads of `stack_size` bytes each; throws std::runtime_error if the
    /// system refuses.
    HandlerPool(int threads, std::size_t stack_size);
    /// Finishes the queued jobs, then joins the threads.
    ~HandlerPool();
    HandlerPool(const HandlerPool&) = delete;
    HandlerPool& operator=(const HandlerPool&) = delete;

    /// Runs `work` on a pool thread and returns when it is done. `work` must not throw.
    void run(const std::function<void()>& work);

private:
    struct Job;
    static void* thread_main(void* pool);
    void stop();
    void serve();

    std::mutex mutex_;
    std::condition_variable job_queued_;
    std::condition_variable job_done_;
    std::deque<Job*> queue_;
    bool stopping_ = false;
    std::vector<pthread_t> threads_;
};

}  // namespace loupe
