/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NAO in the terms of ROS and its viewers (nao_urdf.c): a URDF made
 * from the body model of nao_model.c, and each joint's transform for a
 * position, so that the links a viewer draws from the URDF move with the
 * robot's joints.
 */
#ifndef DCM_NAO_URDF_H
#define DCM_NAO_URDF_H

#include <stdbool.h>
#include <stdio.h>

/* The URDF's robot name and its root link, the frame of everything else. */
#define NAO_URDF_ROBOT	"NAO"
#define NAO_URDF_ROOT	"torso"

/**
 * struct nao_transform - where a joint's child link is in its parent's frame
 * @parent: the parent link's name (the transform's parent frame)
 * @child: the child link's name
 * @translation: the child's origin in the parent's frame, m
 * @rotation: the child's orientation, a unit quaternion x, y, z, w
 */
struct nao_transform {
	const char *parent;
	const char *child;
	double translation[3];
	double rotation[4];
};

/* Write the URDF to @f. Return: 0, or -EIO when @f fails. */
int nao_urdf_write(FILE *f);
/* The URDF as a string (malloc'd), or NULL without memory. */
char *nao_urdf(void);
/*
 * The transform of joint @j (enum dcm_sim_joint) at @angle rad into @t.
 * Return: false for a joint that moves no link of its own (a hand).
 */
bool nao_joint_transform(unsigned int j, double angle, struct nao_transform *t);

#endif /* DCM_NAO_URDF_H */
