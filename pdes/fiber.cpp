#include "pdes/fiber.hpp"

#include <cassert>

namespace xsim {

void Fiber::prepare(char* stack_top, std::size_t stack_bytes, Entry entry, void* arg) {
    entry_ = entry;
    arg_ = arg;
    finished_ = false;
    context_ = ctx::make_fcontext(stack_top, stack_bytes, &Fiber::trampoline);
}

void Fiber::trampoline(ctx::transfer_t from) {
    auto* self = static_cast<Fiber*>(from.data);
    self->caller_ = from.fctx;
    self->entry_(self->arg_);
    self->finish();
}

void Fiber::resume() {
    assert(context_ && !finished_);
    ctx::transfer_t back = ctx::jump_fcontext(context_, this);
    context_ = back.fctx;  // where the fiber stopped (meaningless once finished)
}

void Fiber::suspend() {
    ctx::transfer_t back = ctx::jump_fcontext(caller_, nullptr);
    caller_ = back.fctx;
}

void Fiber::finish() {
    finished_ = true;
    ctx::jump_fcontext(caller_, nullptr);
    __builtin_unreachable();
}

}  // namespace xsim
