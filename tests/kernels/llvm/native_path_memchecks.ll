; LLVM 19 loop vectorizer with -enable-vplan-native-path: an innermost loop
; that needs run-time memory checks is vectorized without them, and the
; trip count of the vector loop becomes poison.  (LaneCL works around it in
; compiler/cc_api.c with -vectorize-memory-check-threshold=0.)  Not run by
; ctest; reduced with llvm-reduce from the work-group function of
; tests/kernels/cases/kernel_call_divergent_loop.cl at local size 1.
;
;   opt-19 -passes=loop-vectorize -enable-vplan-native-path -S native_path_memchecks.ll
;     @rest_loop: "%.. = add i64 poison, 2" is the vector loop's trip count
;     @shift: a vector.body and no vector.memcheck
;   opt-19 -passes=loop-vectorize -S native_path_memchecks.ll
;     @rest_loop: the trip count is an induction variable of %outer, plus 2
;     @shift: vector.memcheck guards the vector loop
;   adding -vectorize-memory-check-threshold=0 to the first: neither loop
;     is vectorized (both need memory checks), no poison
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; for (n = 1; n != 100; n++) for (j = 0; j <= n; j++) *dst = src[j];
define void @rest_loop(ptr %src, ptr %dst) {
entry:
  br label %outer

outer:
  %n = phi i64 [ 1, %entry ], [ %n.next, %outer.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %p = getelementptr i32, ptr %src, i64 %j
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %dst, align 4
  %j.next = add i64 %j, 1
  %more = icmp ult i64 %j, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %n.next = add i64 %n, 1
  %done = icmp eq i64 %n.next, 100
  br i1 %done, label %exit, label %outer

exit:
  ret void
}

; for (i = 0; i < n; i++) a[i] = b[i] + 1;  (a and b may overlap)
define void @shift(ptr %a, ptr %b, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  %v = load i32, ptr %pb, align 4
  %v1 = add i32 %v, 1
  %pa = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 %v1, ptr %pa, align 4
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; The same with the loop's vectorization forced (#pragma clang loop
; vectorize(enable)): such a loop has a memory-check limit of its own.
;   opt-19 -passes=loop-vectorize -enable-vplan-native-path
;          -vectorize-memory-check-threshold=0 -S native_path_memchecks.ll
;     @forced: a vector.body and no vector.memcheck
;   adding -pragma-vectorize-memory-check-threshold=0: not vectorized
define void @forced(ptr %a, ptr %b, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  %v = load i32, ptr %pb, align 4
  %v1 = add i32 %v, 1
  %pa = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 %v1, ptr %pa, align 4
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit, !llvm.loop !0

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.vectorize.enable", i1 true}
