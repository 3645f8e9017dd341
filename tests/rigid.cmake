# Bodies in space (docs/theory.md section 19, docs/validation.md "Bodies in
# space"): the runtime's state layout Y = (q[nq], u[nu], E_d, E_w) with a
# quaternion per rigid body, on a model table written by hand
# (tests/unit/test_rigid.c), run by rk4 and adaptive against closed forms:
# the torque-free symmetric top's rates and precession, an asymmetric
# body's energy and angular momentum, free fall, |p| = 1, and the methods
# and studies that refuse such a state.
add_executable(test_rigid ${NSM_SOURCE_DIR}/tests/unit/test_rigid.c)
target_include_directories(test_rigid PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_rigid PRIVATE nsmrt m)
add_test(NAME rigid.runtime COMMAND test_rigid)
set_tests_properties(rigid.runtime PROPERTIES LABELS "unit;runtime;rigid")

# Bodies in space as nsmc writes them (tests/rigid/test_rigid_models.c):
# models/free_top.nsm (torque-free symmetric top: Euler's rates and the
# precession about L, the theta, quaternion and body-point columns),
# models/thrown_body.nsm (asymmetric body under tilted gravity and a push:
# the parabola, rotational energy and angular momentum to 1e-12, the
# audit's -m g.r and balance) and tests/rigid/spun_body.nsm (a body-frame
# torque on a tilted body: w3 and the quaternion in closed form, the
# torque's work), each by rk4, adaptive and taylor (taylor to 1e-14).
set(NSM_RIGID_GEN "")
foreach(stem spun_body quat_scaled)
  set(c ${CMAKE_CURRENT_BINARY_DIR}/rigid_${stem}.c)
  # quat_scaled's warning is intended (rigid.quaternion_warning checks it):
  # the build keeps it in a log instead of its own output
  add_custom_command(OUTPUT ${c}
    COMMAND nsmc ${NSM_SOURCE_DIR}/tests/rigid/${stem}.nsm -o ${c} 2> ${c}.log
    DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/rigid/${stem}.nsm)
  list(APPEND NSM_RIGID_GEN ${c})
endforeach()
add_executable(test_rigid_models ${NSM_SOURCE_DIR}/tests/rigid/test_rigid_models.c
  ${NSM_SOURCE_DIR}/generated/free_top.c ${NSM_SOURCE_DIR}/generated/thrown_body.c ${NSM_RIGID_GEN})
target_compile_definitions(test_rigid_models PRIVATE NSM_NO_MAIN)
target_include_directories(test_rigid_models PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_rigid_models PRIVATE nsmrt m)
add_test(NAME rigid.models COMMAND test_rigid_models)
set_tests_properties(rigid.models PROPERTIES LABELS "rigid;runtime;derive")

# A quaternion given with |p| != 1 is warned about (and scaled: rigid.models).
add_test(NAME rigid.quaternion_warning COMMAND nsmc --check ${NSM_SOURCE_DIR}/tests/rigid/quat_scaled.nsm)
set_tests_properties(rigid.quaternion_warning PROPERTIES LABELS "rigid;frontend"
  PASS_REGULAR_EXPRESSION "warning: the quaternion of 'Q' has length 0.9746794344808964[0-9]*: it is scaled to unit length")

# Contacts of bodies in space (docs/theory.md section 19): a sphere of a
# rigid body against a plane as a curved impact gap whose row of W is over
# the velocities, on a table written by hand (tests/unit/test_rigid_contact.c),
# rk4, adaptive and taylor (the gap's series written by hand too) against
# closed forms: a spinning ball bouncing on a tilted plane through its Zeno
# accumulation to the held slide, a ball resting on the plane (lambda =
# m g cos alpha), an eccentric sphere's first impact by Newton's law with
# W_N = (n, c x n_b), an eccentric sphere spinning in flight (its impact at
# the root of z0 - g t^2/2 + a cos(w t) - rho; taylor to 1e-14 s), the
# energy balance, and the refusals (friction, other laws, affine gaps over
# a rotation).
add_executable(test_rigid_contact ${NSM_SOURCE_DIR}/tests/unit/test_rigid_contact.c)
target_include_directories(test_rigid_contact PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_rigid_contact PRIVATE nsmrt m)
add_test(NAME rigid.contact COMMAND test_rigid_contact)
set_tests_properties(rigid.contact PROPERTIES LABELS "unit;runtime;rigid")

# Sphere gaps as nsmc writes them (tests/rigid/test_spheres.c): planes,
# spheres of rigid bodies and their impacts and held contacts, by rk4 and
# adaptive against closed forms and conservation laws: models/ball_in_space.nsm
# (bounces, Zeno accumulation, held slide), tests/rigid/sphere_drop.nsm (an
# eccentric sphere's impact by Newton's law with W = (n, c x n_b)), the
# frictionless tippe top (energy, momentum, L_z, Jellett's integral, the
# sphere's centre at r1, the spheres' contact-point columns against the
# geometry) and the top thrown onto its stem (two spheres of one body
# touching at once: the stem's impact against the 2x2 Delassus problem by
# hand, the sphere lifting off, the run on to t_end).
set(NSM_SPHERE_GEN "")
foreach(stem sphere_drop tippe_frictionless tippe_fall)
  set(c ${CMAKE_CURRENT_BINARY_DIR}/rigid_${stem}.c)
  add_custom_command(OUTPUT ${c}
    COMMAND nsmc ${NSM_SOURCE_DIR}/tests/rigid/${stem}.nsm -o ${c}
    DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/rigid/${stem}.nsm)
  list(APPEND NSM_SPHERE_GEN ${c})
endforeach()
add_executable(test_spheres ${NSM_SOURCE_DIR}/tests/rigid/test_spheres.c
  ${NSM_SOURCE_DIR}/generated/ball_in_space.c ${NSM_SPHERE_GEN})
target_compile_definitions(test_spheres PRIVATE NSM_NO_MAIN)
target_include_directories(test_spheres PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_spheres PRIVATE nsmrt m)
add_test(NAME rigid.spheres COMMAND test_spheres)
set_tests_properties(rigid.spheres PROPERTIES LABELS "rigid;runtime;derive")

# Spatial friction as nsmc writes it (tests/rigid/test_space_friction.c):
# models/tippe_top.nsm, the tippe top with mu = 0.3 and drilling friction,
# its nsm_space_friction list and setup's sf_* numbers against the model's
# parameters, the top by rk4, adaptive and taylor to its stem's first
# contact against tests/reference/tippe_top.py and on past it, Jellett's
# integral without drilling (rk4, taylor) through the slide and the onset of
# rolling, tests/rigid/rolling_sphere.nsm against its closed form (rk4,
# adaptive, taylor), tests/rigid/rolling_incline.nsm's friction force, and
# tests/rigid/drill_spin.nsm (a spin stopped by drilling friction, then
# stuck on three held rows) by rk4 and taylor.
set(c ${NSM_SOURCE_DIR}/generated/tippe_top.c)
set(crs ${CMAKE_CURRENT_BINARY_DIR}/rigid_rolling_sphere.c)
add_custom_command(OUTPUT ${crs}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/rigid/rolling_sphere.nsm -o ${crs}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/rigid/rolling_sphere.nsm)
set(cri ${CMAKE_CURRENT_BINARY_DIR}/rigid_rolling_incline.c)
add_custom_command(OUTPUT ${cri}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/rigid/rolling_incline.nsm -o ${cri}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/rigid/rolling_incline.nsm)
set(cds ${CMAKE_CURRENT_BINARY_DIR}/rigid_drill_spin.c)
add_custom_command(OUTPUT ${cds}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/rigid/drill_spin.nsm -o ${cds}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/rigid/drill_spin.nsm)
add_executable(test_space_friction ${NSM_SOURCE_DIR}/tests/rigid/test_space_friction.c ${c} ${crs}
  ${cri} ${cds})
target_compile_definitions(test_space_friction PRIVATE NSM_NO_MAIN)
target_include_directories(test_space_friction PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_space_friction PRIVATE nsmrt m)
add_test(NAME rigid.space_friction COMMAND test_space_friction)
set_tests_properties(rigid.space_friction PROPERTIES LABELS "rigid;runtime;derive")

# The tippe top's whole 8 s (tests/rigid/test_tippe_invert.c), one test per
# method (rk4, adaptive, taylor): the stem's first contact against
# tests/reference/tippe_top.py, the inversion's instants, the phases'
# geometry, the energy balance.
add_executable(test_tippe_invert ${NSM_SOURCE_DIR}/tests/rigid/test_tippe_invert.c ${c})
target_compile_definitions(test_tippe_invert PRIVATE NSM_NO_MAIN)
target_include_directories(test_tippe_invert PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_tippe_invert PRIVATE nsmrt m)
foreach(method rk4 adaptive taylor)
  add_test(NAME rigid.tippe_invert.${method} COMMAND test_tippe_invert ${method})
  set_tests_properties(rigid.tippe_invert.${method} PROPERTIES LABELS "rigid;runtime")
endforeach()

# A plane's normal given with a length other than 1 is warned about and scaled.
add_test(NAME rigid.plane_warning COMMAND nsmc --check ${NSM_SOURCE_DIR}/tests/rigid/plane_scaled.nsm)
set_tests_properties(rigid.plane_warning PROPERTIES LABELS "rigid;frontend"
  PASS_REGULAR_EXPRESSION "warning: the normal of 'floor' has length 2: it is scaled to unit length")

# Frictional impacts of bodies in space (docs/theory.md section 19,
# "Frictional impacts in space"): Glocker's law at a sphere-plane contact on
# a table written by hand (tests/unit/test_space_impact.c), rk4 and
# adaptive: the super ball between a floor and a table's underside
# (Garwin's sequence in exact rationals, with gravity and spin in 3-D,
# energy kept), sliding impacts against the closed form, the tippe top's
# landing against tests/reference/tippe_top.py --landing, two contacts at
# one instant (a dumbbell landing flat), Glocker's conditions on random
# contacts, and the refusals (an e_F that would create energy, a squeezed
# elastic ball, a frictional contact held shut).
add_executable(test_space_impact ${NSM_SOURCE_DIR}/tests/unit/test_space_impact.c)
target_include_directories(test_space_impact PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_space_impact PRIVATE nsmrt m)
add_test(NAME rigid.space_impact COMMAND test_space_impact)
set_tests_properties(rigid.space_impact PROPERTIES LABELS "unit;runtime;rigid")

# Spatial Coulomb friction in flight (docs/theory.md section 19) on a table
# written by hand (tests/unit/test_spacefric.c), rk4 and adaptive: a sphere
# sliding until it rolls (rolling_sphere.py's closed form: the state halfway,
# v and w after the onset, L about the contact point, the energy dissipated
# mu m g |gamma0| t_r / 2), a sphere's spin stopped by drilling friction in
# closed form, the tippe top's sliding phase (Jellett's integral without
# drilling, the energy balance, theta rising with drilling), and an impact
# on such a contact refused by name.
add_executable(test_spacefric ${NSM_SOURCE_DIR}/tests/unit/test_spacefric.c)
target_include_directories(test_spacefric PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_spacefric PRIVATE nsmrt m)
add_test(NAME rigid.spacefric COMMAND test_spacefric)
set_tests_properties(rigid.spacefric PROPERTIES LABELS "unit;runtime;rigid")

# Garwin's super ball in space as nsmc writes it (models/super_ball_3d.nsm,
# tests/rigid/test_super_ball_3d.c): a spinning ball between a floor and a
# table's underside with tangential restitution, by rk4 and adaptive
# against the closed form of each bounce (instants at roots of quadratics,
# velocities and spins after), and without gravity against Garwin's
# rationals (-333/343, 130/343), all to 1e-12 relative.
add_executable(test_super_ball_3d ${NSM_SOURCE_DIR}/tests/rigid/test_super_ball_3d.c
  ${NSM_SOURCE_DIR}/generated/super_ball_3d.c)
target_compile_definitions(test_super_ball_3d PRIVATE NSM_NO_MAIN)
target_include_directories(test_super_ball_3d PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_super_ball_3d PRIVATE nsmrt m)
add_test(NAME rigid.super_ball_3d COMMAND test_super_ball_3d)
set_tests_properties(rigid.super_ball_3d PROPERTIES LABELS "rigid;runtime;derive")
