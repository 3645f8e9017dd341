# Contacts (label contacts): tolerances that do not follow the absolute
# coordinates, and inelastic collapse over time found from the velocities
# (issue #25, items 2 and 3).
#  - contacts.shift.<model>.<method>: the model shifted by +-1000 m
#    (tests/contacts/shift.py rewrites its initial positions, walls and
#    ground anchors) logs the same events: exact to 1e-12 s; rk4 and
#    adaptive carry absolute positions in double, whose rounding at 1000 m
#    moves their landings by it over the closing speed (1e-9 s).  The
#    bouncing ball is left out: its gap band still follows the absolute
#    coordinates (docs/theory.md section 10).
#  - contacts.collapse_ref: the exact rational derivation of three beads'
#    collapse at t* = 9/4 (tests/contacts/collapse.py --selftest).
#  - contacts.collapse.<method>[.shift]: the simulator's impacts, its one
#    zeno record at 9/4 and the limit state against it, also shifted;
#    contacts.finite.<method>: e = 0.1 gives its 6 collisions, no collapse.
set(NSM_CT_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_CT_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_CT_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_CT_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
set(NSM_CT_ARGS --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_CT_LIBS}
    --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_CT_CFLAGS}")

foreach(method exact rk4 adaptive)
  if(method STREQUAL "exact")
    set(tol 1e-12)
    set(btol 1e-12)
  else()
    set(tol 1e-9)
    set(btol 1e-7)
  endif()
  foreach(model cradle3 two_mass cradle5)
    set(extra --vtol 1e-9)
    set(t ${tol})
    if(model STREQUAL "cradle5")
      set(extra --set e=0.9 --vtol 1e-9)
    elseif(model STREQUAL "bouncing_ball")
      set(t ${btol})
      if(NOT method STREQUAL "exact")
        set(extra --vtol 1e-7)
      endif()
    endif()
    add_test(NAME contacts.shift.${model}.${method}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/shift.py ${NSM_CT_ARGS}
              --model ${NSM_SOURCE_DIR}/models/${model}.nsm --method ${method} --tol ${t} ${extra})
    set_tests_properties(contacts.shift.${model}.${method} PROPERTIES LABELS contacts TIMEOUT 600)
  endforeach()
  add_test(NAME contacts.shift.beads3.${method}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/shift.py ${NSM_CT_ARGS}
            --model ${NSM_SOURCE_DIR}/tests/contacts/beads3.nsm --method ${method} --tol ${tol})
  set_tests_properties(contacts.shift.beads3.${method} PROPERTIES LABELS contacts TIMEOUT 600)
  foreach(shift 0 1000 -1000)
    if(shift STREQUAL "0")
      set(suffix "")
    else()
      set(suffix ".shift${shift}")
    endif()
    add_test(NAME contacts.collapse.${method}${suffix}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/collapse.py ${NSM_CT_ARGS}
              --method ${method} --case collapse --shift ${shift})
    set_tests_properties(contacts.collapse.${method}${suffix} PROPERTIES LABELS contacts TIMEOUT 600)
  endforeach()
  add_test(NAME contacts.finite.${method}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/collapse.py ${NSM_CT_ARGS}
            --method ${method} --case finite)
  set_tests_properties(contacts.finite.${method} PROPERTIES LABELS contacts TIMEOUT 600)
endforeach()
add_test(NAME contacts.collapse_ref
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/collapse.py --selftest)
set_tests_properties(contacts.collapse_ref PROPERTIES LABELS "contacts;reference")

# Impact laws on touching trains (issue #25, item 1; tests/contacts/train.py):
#  - contacts.train.seq_ref: the sequential law against its ordering rule
#    replayed in mpmath at 30 digits (40 beads e = 0.95, 25 beads e = 0.8);
#  - contacts.train.seq_300: 300 touching beads struck at one end end their
#    sequence (about 1e6 pair collisions) with momentum kept and no contact
#    approaching (1000 beads, 3e7 collisions, run in bench/train_bench.py);
#  - contacts.train.sim_3, sim_1000: the simultaneous law against the
#    generalised Newton law solved by hand; sim_lcp: its complementarity
#    conditions when contacts leave (a pivot of the solver);
#  - contacts.train.energetic: the energetic law against the compliant
#    chain's velocities (tests/reference/lzb_chain.py's data);
#  - contacts.train.cap: --max-impacts stops a sequence with a message
#    naming it; contacts.train_ref: the reference's own checks;
#  - contacts.train.en_train: 100 beads under the energetic law (e = 0.95,
#    Hertz) keep momentum and lose energy (1000 in bench/train_bench.py).
foreach(case seq_ref seq_300 energetic sim_3 sim_1000 sim_lcp cap en_train)
  add_test(NAME contacts.train.${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/train.py ${NSM_CT_ARGS} --case ${case})
  set_tests_properties(contacts.train.${case} PROPERTIES LABELS contacts TIMEOUT 1500)
endforeach()
add_test(NAME contacts.train_ref
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/train.py --selftest)
set_tests_properties(contacts.train_ref PROPERTIES LABELS "contacts;reference")

# Plastic trains that settle (issue #25, item 2; tests/contacts/plastic.py):
#  - contacts.plastic.free: twenty free beads, e = 0, the first struck: each
#    instant's never-ending sequence is collapsed from its speeds, the
#    instants t_k = 0.05 k (k + 1) s and the final 1/20 m/s of the closed
#    form to 1e-12, few records;
#  - contacts.plastic.springs: the same beads on weak springs (the issue's
#    model) run to 20 s with momentum, order and energy balance kept and
#    under 50000 records (1.8e5 before).
foreach(case free springs)
  add_test(NAME contacts.plastic.${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/plastic.py ${NSM_CT_ARGS} --case ${case})
  set_tests_properties(contacts.plastic.${case} PROPERTIES LABELS contacts TIMEOUT 600)
endforeach()

# Plastic contacts brought to rest stay at rest (tests/contacts/held.py):
#  - contacts.held.train: a bead M times heavier presses a light one onto a
#    wall (e = 0); both end at rest (closed form) for M = 1 to 1e15 under
#    every method, with the sequential and the simultaneous law, without
#    creeping in steps of 1e-14 s toward the step cap;
#  - contacts.held.stall: the twenty plastic beads on springs under exact
#    without dt run on past t = 1.0003198 s, where two touching contacts
#    with no force were found again and again at one instant;
#  - contacts.held.press0: sliding_block with a press of zero at t = 0 keeps
#    its floor held until pi (closed form N = 3 sin t) under every method,
#    where exact released it at once and hit the event rate cap.
foreach(case train stall press0)
  add_test(NAME contacts.held.${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/contacts/held.py ${NSM_CT_ARGS} --case ${case})
  set_tests_properties(contacts.held.${case} PROPERTIES LABELS contacts TIMEOUT 600)
endforeach()
