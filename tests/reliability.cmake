# Fault injection: a full disk, signals at random moments, two runs into one
# folder, damaged cache entries, `-o` onto FIFOs, symlinks and devices, and
# the limits on what a typo can cost.  See tests/reliability/.

set(NSM_RELIABILITY_CASES disk_full open_error signals every_limit set_file_limits
    run_disk_full run_signals run_concurrent cache_damage run_summaries output_targets
    messages)
foreach(case ${NSM_RELIABILITY_CASES})
  add_test(NAME reliability/${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/reliability_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/${case} PROPERTIES LABELS reliability TIMEOUT 600)
endforeach()
